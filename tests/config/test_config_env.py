"""${ENV_VAR} expansion and secrets: expanded, recorded, and never shown."""

from __future__ import annotations

import json

import pytest

from gent_core._config import ConfigError, is_secret_key, parse_config
from gent_core._config.envvars import ExpansionError, expand

KEY = "sk-live-0123456789abcdef"


# --------------------------------------------------------------------------- expand()


@pytest.mark.parametrize(
    ("text", "environ", "expected", "values"),
    [
        ("${A}", {"A": "x1"}, "x1", ["x1"]),
        ("pre-${A}-post", {"A": "mid"}, "pre-mid-post", ["mid"]),
        ("${A}${B}", {"A": "1", "B": "2"}, "12", ["1", "2"]),
        ("${A:-dflt}", {}, "dflt", []),
        ("${A:-dflt}", {"A": ""}, "dflt", []),
        ("${A:-dflt}", {"A": "set"}, "set", ["set"]),
        ("${A:-}", {}, "", []),
        ("$${A}", {"A": "no"}, "${A}", []),
        ("cost $5 and $HOME", {"HOME": "/h"}, "cost $5 and $HOME", []),
        ("${A}", {"A": "${B}"}, "${B}", ["${B}"]),
        ("no dollars", {}, "no dollars", []),
    ],
)
def test_expand(text: str, environ: dict[str, str], expected: str, values: list[str]) -> None:
    result = expand(text, environ)
    assert (result.text, result.values) == (expected, values)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("${MISSING}", "environment variable 'MISSING' is not set"),
        ("${unclosed", "unclosed variable reference"),
        ("${1BAD}", "invalid variable reference ${1BAD}"),
        ("${}", "invalid variable reference ${}"),
    ],
)
def test_expand_errors(text: str, fragment: str) -> None:
    with pytest.raises(ExpansionError, match=fragment.replace("$", r"\$").replace("{", r"\{")):
        expand(text, {})


def test_expand_is_linear_on_many_references() -> None:
    text = "${A}" * 50_000 + "${unclosed"
    with pytest.raises(ExpansionError):
        expand(text, {"A": "x"})
    assert expand("${A}" * 50_000, {"A": "x"}).text == "x" * 50_000


# --------------------------------------------------------------------------- in configs


def test_variables_expand_in_nested_values_and_lists() -> None:
    text = """\
model: {name: fake, api_key: "${KEY}", base_url: "http://${HOST}:8080"}
prompt:
  rules: ["Work in ${PROJECT}"]
"""
    loaded = parse_config(text, environ={"KEY": KEY, "HOST": "gpu-box", "PROJECT": "gent"})
    assert loaded.config.model.options == {
        "api_key": KEY,
        "base_url": "http://gpu-box:8080",
    }
    assert loaded.config.prompt.rules == ["Work in gent"]
    # a host name or a project name is not a credential: only the value under api_key is
    assert loaded.secrets == frozenset({KEY})


def test_plain_scalars_are_typed_again_after_expansion() -> None:
    text = "model: fake\nmax_steps: ${STEPS}\nthinking: ${THINK}\ntimeouts: {model: '${T}'}\n"
    loaded = parse_config(text, environ={"STEPS": "4", "THINK": "false", "T": "2.5"})
    assert loaded.config.max_steps == 4
    assert loaded.config.thinking is False
    assert loaded.config.timeouts.model == 2.5
    # numbers and booleans are not credentials; recording them would mask every "4"
    assert loaded.secrets == frozenset()


def test_quoted_values_stay_strings() -> None:
    text = "model: {name: fake, label: '${N}'}\n"
    loaded = parse_config(text, environ={"N": "1234"})
    assert loaded.config.model.options["label"] == "1234"
    assert loaded.secrets == frozenset()  # N is no credential's name, label no credential key


def test_short_environment_values_are_not_secrets_unless_under_a_secret_key() -> None:
    text = "model: {name: fake, region: '${R}', token: '${R}'}\n"
    loaded = parse_config(text, environ={"R": "eu"})
    assert loaded.config.model.options == {"region": "eu", "token": "eu"}
    assert loaded.secrets == frozenset({"eu"})
    loaded = parse_config("model: {name: fake, region: '${R}'}\n", environ={"R": "eu"})
    assert loaded.secrets == frozenset()


def test_escaped_reference_is_literal_and_not_secret() -> None:
    loaded = parse_config("model: fake\nprompt: {append: 'use $${HOME}'}\n", environ={})
    assert loaded.config.prompt.append == "use ${HOME}"
    assert loaded.secrets == frozenset()


def test_default_value_is_used_and_not_secret() -> None:
    loaded = parse_config("model: {name: fake, url: '${URL:-http://localhost}'}\n", environ={})
    assert loaded.config.model.options["url"] == "http://localhost"
    assert loaded.secrets == frozenset()


def test_keys_are_not_expanded() -> None:
    loaded = parse_config('model:\n  name: fake\n  "${X}": 1\n', environ={"X": "never"})
    assert loaded.config.model.options == {"${X}": 1}


def test_environ_defaults_to_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENT_TEST_MODEL", "fake-from-env")
    assert parse_config("model: ${GENT_TEST_MODEL}\n").config.model.name == "fake-from-env"


def test_unset_variable_names_variable_file_and_line() -> None:
    text = "model: fake\nformat: xml\ntermination:\n  name: json\n  schema: ${SCHEMA}\n"
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="agent.yaml", environ={})
    assert str(caught.value) == (
        "agent.yaml, line 5, key 'termination.schema': environment variable 'SCHEMA' is not "
        "set (set it, or give a default: ${SCHEMA:-default})"
    )
    location = caught.value.location
    assert (location.file, location.line, location.column) == ("agent.yaml", 5, 11)


def test_every_unset_variable_is_reported_at_once() -> None:
    text = "model: ${M}\nformat: ${F}\n"
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="a.yaml", environ={})
    lines = str(caught.value).splitlines()
    assert lines[0] == "a.yaml: 2 problems in the configuration:"
    assert lines[1].startswith("a.yaml, line 1, key 'model': environment variable 'M'")
    assert lines[2].startswith("a.yaml, line 2, key 'format': environment variable 'F'")


# --------------------------------------------------------------------------- secrets


@pytest.mark.parametrize(
    "key",
    [
        "api_key",
        "API_KEY",
        "openai_api_key",
        "apiKey",
        "token",
        "access_token",
        "password",
        "client_secret",
        "secret",
        "auth",
        "private-key",
        "credentials",
    ],
)
def test_credential_keys(key: str) -> None:
    assert is_secret_key(key)


@pytest.mark.parametrize(
    "key", ["max_tokens", "tokenizer", "author", "name", "temperature", "secretary", 3]
)
def test_ordinary_keys(key: object) -> None:
    assert not is_secret_key(key)


def test_values_under_credential_keys_are_secrets_even_when_written_literally() -> None:
    text = "model: {name: fake, api_key: literal-key-value, headers: {Authorization: 'x'}}\n"
    loaded = parse_config(text)
    assert "literal-key-value" in loaded.secrets
    assert loaded.redacted_dict()["model"]["api_key"] == "***"


def test_redact_masks_every_secret_everywhere() -> None:
    loaded = parse_config("model: {name: fake, api_key: '${KEY}'}\n", environ={"KEY": KEY})
    text = f"calling with key={KEY}; again {KEY}."
    assert loaded.redact(text) == "calling with key=***; again ***."
    assert loaded.redact("nothing secret") == "nothing secret"


def test_redact_masks_longest_secret_first() -> None:
    loaded = parse_config(
        "model: {name: fake, token: '${A}', password: '${B}'}\n",
        environ={"A": "abcd", "B": "abcdefgh"},
    )
    assert loaded.redact("x abcdefgh y") == "x *** y"


def test_secrets_do_not_appear_in_redacted_dict_or_reprs() -> None:
    text = """\
model: {name: fake, api_key: "${KEY}", base_url: "https://host/${KEY}/v1"}
prompt: {append: "key is ${KEY}"}
tools: [{name: greet, greeting: "${KEY}"}]
"""
    loaded = parse_config(text, environ={"KEY": KEY})
    assert loaded.config.model.options["api_key"] == KEY  # the code still gets the value
    dumped = json.dumps(loaded.redacted_dict())
    assert KEY not in dumped
    assert loaded.redacted_dict()["model"]["base_url"] == "https://host/***/v1"
    for shown in (
        repr(loaded),
        str(loaded),
        repr(loaded.config),
        str(loaded.config),
        repr(loaded.config.model),
        str(loaded.config.tools[0]),
    ):
        assert KEY not in shown
        assert "***" in shown


def test_component_repr_masks_credential_options_without_a_loaded_config() -> None:
    from gent_core._config import ComponentSpec

    spec = ComponentSpec(name="openai", options={"api_key": KEY, "model": "gpt"})
    assert KEY not in repr(spec)
    assert "'model': 'gpt'" in repr(spec)


def test_validation_errors_never_echo_a_secret() -> None:
    text = """\
model: fake
max_steps: "${SERVICE_TOKEN}"
timeouts: {tool: "${SERVICE_TOKEN}"}
"""
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="agent.yaml", environ={"SERVICE_TOKEN": KEY})
    error = caught.value
    for shown in (str(error), repr(error), error.model_message, *map(str, error.args)):
        assert KEY not in shown
    assert str(error).splitlines()[1:] == [
        "agent.yaml, line 2, key 'max_steps': expected an integer >= 1, got (secret value)",
        "agent.yaml, line 3, key 'timeouts.tool': expected a number > 0, got (secret value)",
    ]
    assert error.__cause__ is None and error.__suppress_context__


def test_non_mapping_document_from_a_secret_is_not_echoed() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config("'${API_KEY}'\n", environ={"API_KEY": KEY})
    assert KEY not in str(caught.value)
    assert "got (secret value)" in str(caught.value)


def test_unset_variables_and_invalid_values_are_reported_together() -> None:
    text = 'model: ${NOPE}\nmax_steps: many\nprompt: {rules: ["${X}", 3]}\n'
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="a.yaml", environ={})
    assert str(caught.value).splitlines() == [
        "a.yaml: 4 problems in the configuration:",
        "a.yaml, line 1, key 'model': environment variable 'NOPE' is not set (set it, or give "
        "a default: ${NOPE:-default})",
        "a.yaml, line 2, key 'max_steps': expected an integer >= 1, got 'many'",
        "a.yaml, line 3, key 'prompt.rules.0': environment variable 'X' is not set (set it, "
        "or give a default: ${X:-default})",
        "a.yaml, line 3, key 'prompt.rules.1': expected a string, got 3",
    ]


def test_unquoted_reference_in_a_flow_mapping_gets_a_hint() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config("model: fake\nformat: {name: x, api_key: ${K}}\n", environ={"K": "v"})
    assert caught.value.location.line == 2
    assert str(caught.value).endswith(
        "(inside [...] or {...}, quote a value that uses ${...}: '${NAME}')"
    )
    loaded = parse_config("model: fake\nformat: {name: x, api_key: '${K}'}\n", environ={"K": "v"})
    assert loaded.config.format.options == {"api_key": "v"}

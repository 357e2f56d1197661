"""Which configuration values are credentials, and how each kind of output masks them
(issue 17): the whole value where the configuration is shown, only long credentials in free
text, never a key."""

from __future__ import annotations

import logging

import pytest

from gent_core._config import apply_overrides, parse_config
from gent_core._config.secrets import MIN_TEXT_SECRET_LENGTH, is_placeholder, is_secret_key

LOGGER = "gent_core._config.loading"


def test_only_credential_keys_and_credential_named_variables_make_secrets() -> None:
    text = """\
model:
  name: fake
  model: ${OPENAI_MODEL}
  base_url: "http://host/v1?key=${SERVICE_API_KEY}"
  api_key: ${OPENAI_API_KEY}
"""
    environ = {"OPENAI_MODEL": "gpt-local-model", "SERVICE_API_KEY": "svc-0123456789"}
    environ["OPENAI_API_KEY"] = "sk-0123456789"
    loaded = parse_config(text, environ=environ)
    assert loaded.secrets == {"svc-0123456789", "sk-0123456789"}
    shown = loaded.redacted_dict()["model"]
    assert shown == {
        "name": "fake",
        "model": "gpt-local-model",
        "base_url": "http://host/v1?key=***",
        "api_key": "***",
    }


@pytest.mark.parametrize("key", ["Authorization", "Proxy-Authorization", "Cookie", "API_TOKEN"])
def test_header_and_environment_names_of_credentials(key: str) -> None:
    assert is_secret_key(key)


def test_a_short_credential_is_masked_whole_in_the_config_but_never_searched_for_in_text() -> None:
    text = "model: {name: fake, api_key: none, model: nonesuch}\nprompt: {append: none of it}\n"
    loaded = parse_config(text)
    assert loaded.redacted_dict()["model"] == {
        "name": "fake",
        "api_key": "***",
        "model": "nonesuch",
    }
    assert loaded.redacted_dict()["prompt"]["append"] == "none of it"
    assert loaded.redact("Is none of these numbers prime?") == "Is none of these numbers prime?"
    assert "'api_key': '***'" in repr(loaded.config.model)


def test_credentials_from_eight_characters_on_are_masked_in_text() -> None:
    long, short = "p" * MIN_TEXT_SECRET_LENGTH, "q" * (MIN_TEXT_SECRET_LENGTH - 1)
    loaded = parse_config(f"model: {{name: fake, token: {long}, password: {short}}}\n")
    assert loaded.redact(f"a {long} b {short}") == f"a *** b {short}"


def test_keys_are_never_masked_in_the_shown_config() -> None:
    text = "model: {name: fake, api_key: model, headers: {model: x}}\n"
    shown = parse_config(text).redacted_dict()["model"]
    assert shown == {"name": "fake", "api_key": "***", "headers": {"model": "x"}}


def test_a_string_holding_a_short_credential_is_shown_masked_as_a_whole() -> None:
    text = 'model: {name: fake, base_url: "http://host/?token=${MY_TOKEN}"}\n'
    loaded = parse_config(text, environ={"MY_TOKEN": "abc"})
    assert loaded.redacted_dict()["model"]["base_url"] == "***"
    assert loaded.redact("GET http://host/?token=abc failed") == "GET *** failed"


def test_a_short_credential_gets_one_warning_without_its_value(
    caplog: pytest.LogCaptureFixture,
) -> None:
    text = "model: {name: fake, api_key: 'k3y!x'}\n"
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        parse_config(text, source="agent.yaml")
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 1
    assert messages[0].startswith(
        "agent.yaml, line 1, key 'model.api_key': this credential is only 5 characters long"
    )
    assert "k3y!x" not in messages[0]


@pytest.mark.parametrize(
    "value", ["none", "x", "xxx", "local", "EMPTY", "dummy", "no-key", "NO_KEY", "ollama", "n/a"]
)
def test_placeholders_get_no_warning(value: str, caplog: pytest.LogCaptureFixture) -> None:
    assert is_placeholder(value)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        parse_config(f"model: {{name: fake, api_key: '{value}'}}\n")
    assert caplog.records == []


@pytest.mark.parametrize("value", ["hunter2", "k3y", "abc123"])
def test_short_values_that_look_real_are_not_placeholders(value: str) -> None:
    assert not is_placeholder(value)


def test_a_credential_set_by_an_override_is_a_credential_too() -> None:
    loaded = parse_config("model: {name: fake}\n")
    changed = apply_overrides(loaded, {"model.api_key": "sk-from-the-command-line"}, origin="-o")
    assert "sk-from-the-command-line" in changed.secrets
    assert changed.redact("key sk-from-the-command-line") == "key ***"
    assert changed.redacted_dict()["model"]["api_key"] == "***"

"""Bad configuration files: every error names the file, the line and the key, and says what
is accepted; all problems are reported at once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gent_core._bounded import MAX_YAML_VALUES
from gent_core._config import ConfigError, load_config, parse_config
from gent_core.errors import GentError


def error_of(text: str, source: str = "agent.yaml") -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source=source, environ={})
    return caught.value


def test_config_error_is_a_gent_error() -> None:
    assert issubclass(ConfigError, GentError)


def test_wrong_integer_names_file_line_key_and_what_is_accepted() -> None:
    text = (
        "model: fake\nformat: xml\ntoolchain: json\ntermination: text\ntools: []\nmax_steps: many\n"
    )
    error = error_of(text)
    assert str(error) == "agent.yaml, line 6, key 'max_steps': expected an integer >= 1, got 'many'"
    assert (error.location.file, error.location.line, error.location.key) == (
        "agent.yaml",
        6,
        "max_steps",
    )
    assert len(error.problems) == 1


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("max_steps: 0", "key 'max_steps': expected an integer >= 1, got 0"),
        ("max_steps: true", "key 'max_steps': expected an integer >= 1, got true"),
        ("max_steps: 2.5", "key 'max_steps': expected an integer >= 1, got 2.5"),
        ("thinking: perhaps", "key 'thinking': expected true or false, got 'perhaps'"),
        ("timeouts: {tool: -1}", "key 'timeouts.tool': expected a number > 0, got -1"),
        (
            "timeouts: {model: soon}",
            "key 'timeouts.model': expected a number > 0 or null, got 'soon'",
        ),
        (
            "timeouts: 5",
            "key 'timeouts': expected a mapping with keys tool, model, model_idle, got 5",
        ),
        (
            "approval: {default: maybe}",
            "key 'approval.default': expected one of 'allow', 'deny', 'ask', got 'maybe'",
        ),
        ("prompt: {rules: one}", "key 'prompt.rules': expected a list of strings, got 'one'"),
        ("prompt: {rules: [ok, [nested]]}", "key 'prompt.rules.1': expected a string, got a list"),
        ("tools: calculator", "key 'tools': expected a list, got 'calculator'"),
        (
            "tools: [5]",
            "key 'tools.0': expected a tool name, a mapping {name: ..., <options>}, tools "
            "declared from a schema {declare: {...}}, or a toolset written {<toolset>: "
            "{<options>}} (e.g. {mcp: {name: git, command: [...]}}), got 5",
        ),
        (
            "format: {strict: true}",
            "key 'format': a component mapping needs a 'name' key (the plugin name); its keys "
            "are: strict",
        ),
        ("format: {name: 3}", "key 'format.name': expected a non-empty string, got 3"),
        ("format: ''", "key 'format.name': expected a non-empty string, got ''"),
        (
            "limits: {max_tool_output_chars: 0}",
            "key 'limits.max_tool_output_chars': expected an integer >= 1, got 0",
        ),
        (
            "working_directory: [a]",
            "key 'working_directory': expected a path (a string), got a list",
        ),
    ],
)
def test_wrong_values_say_what_is_accepted(line: str, expected: str) -> None:
    error = error_of(f"model: fake\n{line}\n")
    assert str(error) == f"agent.yaml, line 2, {expected}"


def test_unknown_top_level_key_suggests_and_lists_accepted_keys() -> None:
    error = error_of("model: fake\nformt: xml\n")
    assert str(error) == (
        "agent.yaml, line 2, key 'formt': unknown key 'formt' (did you mean 'format'?); "
        "accepted keys: model, format, toolchain, termination, tools, middleware, "
        "allow_writes, thinking, max_steps, timeouts, limits, working_directory, prompt, "
        "approval"
    )


def test_unknown_nested_key_lists_that_mappings_keys() -> None:
    error = error_of("model: fake\ntimeouts:\n  tool: 3\n  modle: 4\n")
    assert str(error) == (
        "agent.yaml, line 4, key 'timeouts.modle': unknown key 'modle' (did you mean "
        "'model'?); accepted keys: tool, model, model_idle"
    )


def test_unknown_key_without_close_match_has_no_suggestion() -> None:
    error = error_of("model: fake\nzzz: 1\n")
    assert "did you mean" not in str(error)
    assert "accepted keys: model, format" in str(error)


def test_missing_model_names_the_key_and_the_accepted_form() -> None:
    error = error_of("format: xml\n")
    assert str(error) == (
        "agent.yaml, key 'model': missing required key 'model' (expected a plugin name or a "
        "mapping {name: ..., <options>})"
    )
    assert error.location.line is None


def test_all_problems_are_reported_at_once_in_file_order() -> None:
    text = """\
model: fake
max_steps: many
timeouts:
  tool: 0
formt: xml
tools:
  - greet
  - 7
"""
    error = error_of(text)
    assert str(error).splitlines() == [
        "agent.yaml: 4 problems in the configuration:",
        "agent.yaml, line 2, key 'max_steps': expected an integer >= 1, got 'many'",
        "agent.yaml, line 4, key 'timeouts.tool': expected a number > 0, got 0",
        "agent.yaml, line 5, key 'formt': unknown key 'formt' (did you mean 'format'?); "
        "accepted keys: model, format, toolchain, termination, tools, middleware, "
        "allow_writes, thinking, max_steps, timeouts, limits, working_directory, prompt, "
        "approval",
        "agent.yaml, line 8, key 'tools.1': expected a tool name, a mapping {name: ..., "
        "<options>}, tools declared from a schema {declare: {...}}, or a toolset written "
        "{<toolset>: {<options>}} (e.g. {mcp: {name: git, command: [...]}}), got 7",
    ]
    assert [problem.location.line for problem in error.problems] == [2, 4, 5, 8]
    assert error.location.line == 2


def test_yaml_syntax_error_gives_the_line() -> None:
    error = error_of("model: fake\nformat: [xml\nmax_steps: 3\n")
    assert str(error) == (
        "agent.yaml, line 3: invalid YAML: while parsing a flow sequence (started on line 2): "
        "expected ',' or ']', but got ':'"
    )


def test_yaml_indentation_error_gives_the_line() -> None:
    error = error_of("model: fake\n  format: xml\n")
    assert str(error) == ("agent.yaml, line 2: invalid YAML: mapping values are not allowed here")


def test_tab_indentation_error_gives_the_line() -> None:
    error = error_of("model: fake\nprompt:\n\trole: x\n")
    assert error.location.line == 3
    assert "invalid YAML" in str(error)


def test_several_documents_are_refused() -> None:
    error = error_of("model: fake\n---\nmodel: other\n")
    assert "invalid YAML" in str(error)
    assert "single document" in str(error)
    assert error.location.line == 2


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "~\n"])
def test_empty_file(text: str) -> None:
    assert str(error_of(text)) == (
        "agent.yaml: the configuration is empty; it needs at least a 'model' key "
        "(e.g. 'model: llamacpp')"
    )


@pytest.mark.parametrize(
    ("text", "got"), [("- model\n- xml\n", "a list"), ("just text\n", "'just text'"), ("3\n", "3")]
)
def test_not_a_mapping(text: str, got: str) -> None:
    assert str(error_of(text)) == (
        "agent.yaml, line 1: the configuration must be a mapping of keys (model, format, "
        f"toolchain, termination, tools, ...), got {got}"
    )


def test_duplicate_key_names_both_lines() -> None:
    error = error_of("model: fake\nmax_steps: 3\nmodel: other\n")
    assert str(error) == (
        "agent.yaml, line 3, key 'model': duplicate key 'model' (first written on line 1)"
    )


def test_merge_key_overrides_are_not_duplicates() -> None:
    loaded = parse_config("model: &m {name: fake, t: 1}\nformat:\n  <<: *m\n  t: 2\n")
    assert loaded.config.format.options == {"t": 2}


def test_python_tags_are_refused_without_running_anything(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = (
        "model: fake\n"
        "format: !!python/object/apply:pathlib.Path.touch "
        f"[!!python/object/apply:pathlib.Path ['{marker}']]\n"
    )
    error = error_of(text)
    assert not marker.exists()
    assert error.location.line == 2
    assert "unsupported YAML tag '!!python/object/apply:pathlib.Path.touch'" in str(error)
    assert "only plain mappings, lists, strings, numbers, booleans and null" in str(error)


@pytest.mark.parametrize("tag", ["!custom x", "!!binary aGVsbG8=", "!!set {a, b}"])
def test_other_tags_are_refused(tag: str) -> None:
    error = error_of(f"model: fake\nprompt: {{append: {tag}}}\n")
    assert error.location.line == 2
    assert "unsupported YAML tag" in str(error)


def test_recursive_alias_is_an_error() -> None:
    error = error_of("model: fake\nprompt:\n  rules: &r [a, *r]\n")
    assert str(error) == (
        "agent.yaml, line 3, key 'prompt.rules.1': a recursive alias (a value that contains itself)"
    )


def test_alias_bomb_is_stopped() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for index in range(1, 8):
        previous = f"*a{index - 1}"
        lines.append(f"a{index}: &a{index} [{', '.join([previous] * 10)}]")
    error = error_of("\n".join(lines) + "\n")
    assert f"more than {MAX_YAML_VALUES:,} values" in str(error)


def test_non_string_keys_are_refused() -> None:
    error = error_of("model: fake\n1: one\non: true\n")
    assert str(error).splitlines()[1:] == [
        "agent.yaml, line 2: keys must be strings, got '1' (quote it)",
        "agent.yaml, line 3: keys must be strings, got 'on' (quote it)",
    ]


def test_missing_working_directory(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(
            "model: fake\nworking_directory: nowhere\n", source="a.yaml", base_dir=tmp_path
        )
    assert str(caught.value) == (
        f"a.yaml, line 2, key 'working_directory': the working directory {tmp_path / 'nowhere'} "
        "does not exist; expected an existing directory (relative paths are resolved against "
        "the config file's directory)"
    )


def test_working_directory_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(ConfigError, match=r"file\.txt is not a directory"):
        parse_config("model: fake\nworking_directory: file.txt\n", base_dir=tmp_path)


def test_file_not_found(tmp_path: Path) -> None:
    path = tmp_path / "missing.yaml"
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == f"{path}: config file not found"
    assert caught.value.location.file == str(path)


def test_directory_instead_of_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory, not a config file"):
        load_config(tmp_path)


def test_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_bytes(b"model: fake\nprompt: {append: \xff\xfe}\n")
    with pytest.raises(ConfigError, match=r"not UTF-8 text \(byte 29\)"):
        load_config(path)


def test_errors_from_a_file_name_the_file(write_config: Callable[[str], Path]) -> None:
    path = write_config("model: fake\n\n\nmax_steps: -3\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == (
        f"{path}, line 4, key 'max_steps': expected an integer >= 1, got -3"
    )

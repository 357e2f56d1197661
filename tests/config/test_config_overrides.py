"""The override mechanism shared by gent run/describe flags and gent eval --matrix."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from gent_core._config import ConfigError, Override, apply_overrides, build_components, parse_config
from gent_core._config.default import DEFAULT_AGENT_SOURCE, default_agent_yaml, default_config
from gent_core._config.overrides import parse_assignment, parse_setting, read_scalar

CONFIG = """\
model: {name: fake, temperature: 0.5}
format: fake
toolchain: calls
tools: [greet]
max_steps: 3
"""


def loaded() -> Any:
    return parse_config(CONFIG, source="agent.yaml")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.2", 0.2),
        ("4", 4),
        ("true", True),
        ("[a, b]", ["a", "b"]),
        ("{x: 1}", {"x": 1}),
        ("", ""),
        ("hello world", "hello world"),
        ("a: b: c", "a: b: c"),  # not valid YAML: the text itself
    ],
)
def test_values_are_read_as_yaml_scalars(text: str, value: object) -> None:
    assert read_scalar(text) == value


def test_a_setting_keeps_its_commas() -> None:
    assert parse_setting("prompt.append=a, b") == ("prompt.append", "a, b")
    assert parse_assignment("prompt.append=a, b") == ("prompt.append", ["a", "b"])
    with pytest.raises(ValueError, match="expected KEY=VALUE"):
        parse_setting("max_steps")
    with pytest.raises(ValueError, match="expected a config key"):
        parse_setting("max steps=3")


def test_overrides_apply_in_order_and_the_original_is_untouched() -> None:
    original = loaded()
    changed = apply_overrides(
        original,
        [
            Override("model", "other", "-m other"),
            Override("model.temperature", 0.1, "-o model.temperature=0.1"),
            Override("max_steps", 7, "-o max_steps=7"),
            Override("max_steps", 8, "-o max_steps=8"),
        ],
    )
    assert changed.config.model.name == "other"
    assert changed.config.model.options == {"temperature": 0.1}
    assert changed.config.max_steps == 8
    assert original.config.model.options == {"temperature": 0.5}
    assert original.config.max_steps == 3


def test_an_update_sees_the_current_value() -> None:
    seen: list[object] = []

    def add(current: object) -> object:
        seen.append(current)
        assert isinstance(current, list)
        return [*current, "shout"]

    changed = apply_overrides(loaded(), [Override("tools", origin="-T shout", update=add)])
    assert seen == [["greet"]]
    assert [spec.name for spec in changed.config.tools] == ["greet", "shout"]  # type: ignore[union-attr]


def test_overridden_keys_report_their_flag_not_a_file_line() -> None:
    changed = apply_overrides(loaded(), [Override("max_steps", 5, "-o max_steps=5")])
    assert changed.origin_of(("max_steps",)) == "-o max_steps=5"
    assert changed.origin_of(("format",)) is None
    where = changed.location_of("max_steps")
    assert (where.file, where.line, where.key) == (None, None, "max_steps")
    assert changed.location_of("format").line == 2  # untouched keys keep their line


def test_a_bad_value_names_the_flag() -> None:
    with pytest.raises(ConfigError) as caught:
        apply_overrides(
            loaded(),
            [
                Override("format", "fake", "--format fake"),
                Override("max_steps", 0, "-o max_steps=0"),
                Override("max_steps.deep", 1, "-o max_steps.deep=1"),
            ],
        )
    lines = str(caught.value).splitlines()
    assert "key 'max_steps': expected an integer >= 1, got 0 (set by -o max_steps=0)" in lines
    assert (
        "key 'max_steps.deep': cannot set max_steps.deep: max_steps is not a mapping or list "
        "item (set by -o max_steps.deep=1)" in lines
    )
    assert not any("agent.yaml" in line or "line " in line for line in lines)


def test_building_names_the_flag_that_set_an_unknown_component(fakes: SimpleNamespace) -> None:
    changed = apply_overrides(loaded(), [Override("format", "fakee", "--format fakee")])
    with pytest.raises(ConfigError) as caught:
        build_components(changed, fakes.sandbox.registry())
    message = str(caught.value)
    assert message.startswith("key 'format': no format named 'fakee'")
    assert message.endswith("(set by --format fakee)")


def test_building_names_the_flag_that_set_a_bad_option(fakes: SimpleNamespace) -> None:
    changed = apply_overrides(
        loaded(), [Override("model.temperature", 9, "-o model.temperature=9")]
    )
    with pytest.raises(ConfigError) as caught:
        build_components(changed, fakes.sandbox.registry())
    message = str(caught.value)
    assert "key 'model.temperature'" in message
    assert "(set by -o model.temperature=9)" in message
    assert "line" not in message


def test_the_default_agent_is_one_file() -> None:
    text = default_agent_yaml()
    config = default_config().config
    assert default_config().source == DEFAULT_AGENT_SOURCE
    assert (config.model.name, config.format.name, config.toolchain.name) == (
        "llamacpp",
        "xml",
        "json",
    )
    assert config.termination.name == "text"
    assert config.model_dump(mode="json")["tools"] == ["calculator", "current_time"]
    assert parse_config(text).config == config

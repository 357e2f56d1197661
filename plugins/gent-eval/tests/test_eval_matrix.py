"""Matrix expansion and config overrides."""

from __future__ import annotations

import pytest
from gent_eval.configs import (
    apply_overrides,
    build_configurations,
    default_config,
    expand_matrix,
    parse_assignment,
)

from gent_core import ConfigError, parse_config

CONFIG = "model: scripted\nformat: xml\ntoolchain: json\ntools: [calculator]\n"


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        ("format=xml,markdown", "format", ["xml", "markdown"]),
        ("model.temperature=0.2,0.7", "model.temperature", [0.2, 0.7]),
        ("thinking=true,false", "thinking", [True, False]),
        (
            "tools=[calculator],[calculator,current_time]",
            "tools",
            [["calculator"], ["calculator", "current_time"]],
        ),
        ("prompt.append='a, b',c", "prompt.append", ["a, b", "c"]),
        ("tools.0=current_time", "tools.0", ["current_time"]),
    ],
)
def test_parse_assignment(text: str, key: str, values: list[object]) -> None:
    assert parse_assignment(text) == (key, values)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("format", "expected KEY=VALUE"),
        ("=xml", "expected a config key"),
        ("for mat=xml", "expected a config key"),
        ("format=xml,", "empty value"),
    ],
)
def test_parse_assignment_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_assignment(text)


def test_expand_matrix_every_combination_in_order() -> None:
    combos = expand_matrix([("format", ["xml", "markdown"]), ("toolchain", ["json", "yaml"])])
    assert combos == [
        {"format": "xml", "toolchain": "json"},
        {"format": "xml", "toolchain": "yaml"},
        {"format": "markdown", "toolchain": "json"},
        {"format": "markdown", "toolchain": "yaml"},
    ]
    assert expand_matrix([]) == [{}]
    assert len(expand_matrix([("a", [1, 2, 3]), ("b", [1, 2]), ("c", [1, 2])])) == 12


def test_overrides_dotted_option_on_a_short_form_component() -> None:
    loaded = parse_config(CONFIG, source="agent.yaml")
    changed = apply_overrides(loaded, {"model.outputs": ["hi"], "format": "markdown"})
    assert changed.config.model.name == "scripted"
    assert changed.config.model.options == {"outputs": ["hi"]}
    assert changed.config.format.name == "markdown"
    assert loaded.config.format.name == "xml"  # the original is untouched
    assert ("format",) not in changed.marks  # its line no longer describes the value
    assert ("toolchain",) in changed.marks


def test_overrides_errors_name_the_key_and_origin() -> None:
    loaded = parse_config(CONFIG, source="agent.yaml")
    with pytest.raises(ConfigError) as caught:
        apply_overrides(loaded, {"max_steps": 0, "modle": "x"}, origin="--matrix max_steps=0")
    rendered = str(caught.value)
    assert (
        "key 'max_steps': expected an integer >= 1, got 0 (set by --matrix max_steps=0)" in rendered
    )
    assert "key 'modle': unknown key 'modle' (did you mean 'model'?)" in rendered
    with pytest.raises(ConfigError, match=r"cannot set max_steps\.x: max_steps is not a mapping"):
        apply_overrides(loaded, {"max_steps.x": 1})


def test_build_configurations_labels() -> None:
    one = [("agent.yaml", parse_config(CONFIG, source="agent.yaml"))]
    axes = [("format", ["xml", "markdown"]), ("toolchain", ["json", "yaml"])]
    labels = [c.label for c in build_configurations(one, axes)]
    assert labels == [
        "format=xml toolchain=json",
        "format=xml toolchain=yaml",
        "format=markdown toolchain=json",
        "format=markdown toolchain=yaml",
    ]
    assert [c.label for c in build_configurations(one)] == ["agent"]
    two = [*one, ("other/fast.yaml", parse_config(CONFIG, source="other/fast.yaml"))]
    labels = [c.label for c in build_configurations(two, [("format", ["xml"])])]
    assert labels == ["agent format=xml", "fast format=xml"]
    same = [*one, ("b/agent.yaml", parse_config(CONFIG, source="b/agent.yaml"))]
    assert [c.label for c in build_configurations(same)] == ["agent.yaml", "b/agent.yaml"]


def test_build_configurations_reports_every_bad_combination() -> None:
    one = [("agent.yaml", parse_config(CONFIG, source="agent.yaml"))]
    with pytest.raises(ConfigError) as caught:
        build_configurations(one, [("max_steps", [0, 2, -1])])
    assert len(caught.value.problems) == 2


def test_default_config_is_the_bundled_model_with_basic_tools() -> None:
    config = default_config().config
    assert (config.model.name, config.format.name, config.toolchain.name) == (
        "llamacpp",
        "xml",
        "json",
    )
    assert config.model_dump(mode="json")["tools"] == ["calculator", "current_time"]


def test_eval_uses_the_core_default_agent_and_its_override_mechanism() -> None:
    from gent_eval import configs as eval_configs

    from gent_core import apply_overrides
    from gent_core.config import default_agent_yaml

    assert default_agent_yaml() == eval_configs.DEFAULT_CONFIG
    assert eval_configs.apply_overrides is apply_overrides  # one mechanism, not two

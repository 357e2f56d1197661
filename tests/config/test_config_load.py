"""Loading valid configurations: defaults, every key, paths, positions, round trips."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

import gent_core
from gent_core._config import (
    AgentConfig,
    ComponentSpec,
    LoadedConfig,
    load_config,
    parse_config,
)
from gent_core.context import Limits
from gent_core.errors import Location

FULL = """\
# a complete agent
model:
  name: fake
  temperature: 0.2
format: {name: fake, strict: true}
toolchain: calls
termination:
  name: json
  schema: "gent_core._config:PromptConfig"
tools:
  - greet
  - {name: shout}
thinking: false
max_steps: 8
timeouts: {tool: 12.5, model: 30, model_idle: null}
limits:
  max_consecutive_format_errors: 2
  max_consecutive_tool_errors: 4
  max_output_chars: 9000
  max_tool_output_chars: 500
  max_recorded_output_chars: 700
working_directory: work
prompt:
  role: You are a careful assistant.
  instructions: Think, then act.
  rules: [Be brief., Cite files.]
  append: Good luck.
approval:
  allow: [read_*]
  deny: [rm]
  ask: [write_*]
  default: ask
"""


def test_minimal_config_gets_every_default() -> None:
    config = parse_config("model: fake\n").config
    assert config.model == ComponentSpec(name="fake")
    assert (config.format.name, config.toolchain.name, config.termination.name) == (
        "xml",
        "json",
        "text",
    )
    assert config.tools == []
    assert config.thinking is True
    assert config.max_steps == 10
    assert (config.timeouts.tool, config.timeouts.model) == (60.0, None)
    assert config.timeouts.model_idle == 300.0
    assert config.limits.max_output_chars == 200_000
    assert config.limits.max_recorded_output_chars == 100_000
    assert config.limits_object() == Limits()  # the config and Python defaults agree
    assert config.limits.max_consecutive_format_errors == 3
    assert config.limits.max_consecutive_tool_errors == 3
    assert config.limits.max_tool_output_chars == 16_000
    assert config.prompt.role is None and config.prompt.rules == []
    assert config.approval.default == "allow" and config.approval.deny == []
    assert config.working_directory == Path.cwd().resolve()


def test_every_key_is_read(write_config: Callable[[str], Path]) -> None:
    path = write_config(FULL)
    (path.parent / "work").mkdir()
    loaded = load_config(path)
    config = loaded.config
    assert config.model == ComponentSpec(name="fake", options={"temperature": 0.2})
    assert config.format.options == {"strict": True}
    assert config.toolchain.name == "calls"
    assert config.termination.options == {"schema": "gent_core._config:PromptConfig"}
    assert config.tools == [ComponentSpec(name="greet"), ComponentSpec(name="shout")]
    assert config.thinking is False
    assert config.max_steps == 8
    assert (config.timeouts.tool, config.timeouts.model) == (12.5, 30.0)
    assert config.limits.max_tool_output_chars == 500
    assert config.working_directory == (path.parent / "work").resolve()
    assert config.prompt.rules == ["Be brief.", "Cite files."]
    assert config.prompt.append == "Good luck."
    assert config.approval.allow == ["read_*"]
    assert config.approval.default == "ask"
    assert loaded.source == str(path)
    assert loaded.base_dir == path.parent.resolve()


def test_limits_object_carries_every_limit(write_config: Callable[[str], Path]) -> None:
    path = write_config(FULL)
    (path.parent / "work").mkdir()
    limits = load_config(path).config.limits_object()
    assert limits == Limits(
        max_steps=8,
        tool_timeout=12.5,
        model_timeout=30.0,
        model_idle_timeout=None,
        max_output_chars=9000,
        max_tool_output_chars=500,
        max_recorded_output_chars=700,
        max_consecutive_format_errors=2,
        max_consecutive_tool_errors=4,
    )


def test_every_run_limit_can_be_set_from_a_config_file() -> None:
    """``limits:`` holds exactly the Limits fields that ``max_steps`` and ``timeouts:`` do not,
    so a limit added to the run is settable (and defaulted) in one place."""
    from dataclasses import fields

    from gent_core._config.models import LimitsConfig

    mapped = {"max_steps", "tool_timeout", "model_timeout", "model_idle_timeout"}
    assert set(LimitsConfig.model_fields) == {f.name for f in fields(Limits)} - mapped


def test_working_directory_is_relative_to_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_dir = tmp_path / "configs"
    (config_dir / "project").mkdir(parents=True)
    path = config_dir / "agent.yaml"
    path.write_text("model: fake\nworking_directory: project\n")
    monkeypatch.chdir(tmp_path)
    loaded = load_config(Path("configs/agent.yaml"))
    assert loaded.config.working_directory == (config_dir / "project").resolve()
    assert loaded.source == "configs/agent.yaml"


def test_absolute_and_home_working_directories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    config = parse_config('model: fake\nworking_directory: "~"\n', base_dir="/").config
    assert config.working_directory == tmp_path.resolve()
    config = parse_config(f"model: fake\nworking_directory: {tmp_path}\n").config
    assert config.working_directory == tmp_path.resolve()


def test_component_forms() -> None:
    assert ComponentSpec.model_validate("xml") == ComponentSpec(name="xml")
    assert ComponentSpec.model_validate({"name": "json", "indent": 2}).options == {"indent": 2}
    explicit = ComponentSpec.model_validate({"name": "m", "options": {"name": "n"}})
    assert explicit.options == {"name": "n"}
    qualified = ComponentSpec.model_validate("gent-xml:xml")
    assert qualified.name == "gent-xml:xml"
    assert ComponentSpec.model_validate(" xml ").name == "xml"


def test_round_trip_through_redacted_dict() -> None:
    loaded = parse_config(FULL.replace("working_directory: work\n", ""))
    dumped = loaded.redacted_dict()
    assert dumped["format"] == {"name": "fake", "strict": True}
    assert dumped["toolchain"] == "calls"
    assert dumped["tools"] == ["greet", "shout"]
    again = parse_config(yaml.safe_dump(dumped)).config
    assert again == loaded.config


def test_explicit_options_form_round_trips_when_needed() -> None:
    spec = ComponentSpec(name="m", options={"name": "inner"})
    dumped = spec.model_dump()
    assert dumped == {"name": "m", "options": {"name": "inner"}}
    assert ComponentSpec.model_validate(dumped) == spec


def test_location_of_keys_and_items() -> None:
    loaded = parse_config(FULL.replace("work\n", ".\n"), source="agent.yaml")
    assert loaded.location_of(("max_steps",)) == Location(
        file="agent.yaml", line=14, column=12, key="max_steps"
    )
    assert loaded.location_of(("tools", 1, "name")).line == 12
    assert loaded.location_of(("tools", 0)).line == 11
    assert loaded.location_of(("model", "temperature")).line == 4
    assert loaded.location_of("termination.schema").line == 9
    # a block mapping is located at its key
    assert loaded.location_of(("limits",)).line == 16
    # a key not written falls back to its nearest written parent
    missing = loaded.location_of(("timeouts", "nothing"))
    assert (missing.line, missing.key) == (15, "timeouts.nothing")


def test_location_of_a_default_has_no_line() -> None:
    loaded = parse_config("model: fake\n", source="agent.yaml")
    location = loaded.location_of(("format",))
    assert (location.file, location.line, location.key) == ("agent.yaml", None, "format")


def test_anchors_and_merge_keys_are_resolved() -> None:
    text = """\
model: &m {name: fake, temperature: 0.5}
prompt:
  rules: &rules [one, two]
approval:
  allow: *rules
format:
  <<: *m
  name: fake
"""
    config = parse_config(text).config
    assert config.approval.allow == ["one", "two"]
    assert config.format.options == {"temperature": 0.5}


def test_agent_config_is_exported_lazily() -> None:
    assert gent_core.AgentConfig is AgentConfig
    assert gent_core.load_config is load_config


def test_loaded_config_repr_names_the_source() -> None:
    loaded = parse_config("model: fake\n", source="agent.yaml")
    assert isinstance(loaded, LoadedConfig)
    assert repr(loaded).startswith("LoadedConfig(source='agent.yaml', config=AgentConfig(")

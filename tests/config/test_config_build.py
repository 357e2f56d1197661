"""build_components: registry lookups, option validation and creation, with located errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import BaseModel

from gent_core._config import (
    Components,
    ConfigError,
    build_components,
    load_config,
    parse_config,
)
from gent_core._terminations.text import TextTermination
from gent_core._terminations.typed import JSONTermination
from gent_core.testing import PluginSandbox


class Answer(BaseModel):
    """The typed answer used by the json termination tests."""

    city: str


def build(fakes: SimpleNamespace, text: str, environ: dict[str, str] | None = None) -> Components:
    loaded = parse_config(text, source="agent.yaml", environ=environ or {})
    return build_components(loaded, fakes.sandbox.registry())


def build_error(
    fakes: SimpleNamespace, text: str, environ: dict[str, str] | None = None
) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        build(fakes, text, environ)
    return caught.value


FULL = """\
model:
  name: fake
  temperature: "0.5"
format: {name: fake, strict: true}
toolchain: {name: calls, indent: "2"}
termination: text
tools:
  - {name: greet, greeting: hi, times: "2"}
  - shout
"""


def test_every_component_is_built_with_validated_options(fakes: SimpleNamespace) -> None:
    components = build(fakes, FULL)
    assert isinstance(components.model, fakes.FakeModel)
    assert components.model.options == {
        "temperature": 0.5,
        "api_key": None,
        "base_url": "http://localhost:8080",
    }
    assert isinstance(components.format, fakes.FakeFormat) and components.format.strict is True
    assert isinstance(components.toolchain, fakes.FakeChain) and components.toolchain.indent == 2
    assert isinstance(components.termination, TextTermination)
    greet, shout = components.tools
    assert isinstance(greet, fakes.Greeter) and (greet.greeting, greet.times) == ("hi", 2)
    assert isinstance(shout, fakes.ReadyTool)


def test_toolchain_is_created_with_the_tools(fakes: SimpleNamespace) -> None:
    components = build(fakes, FULL)
    chain = components.toolchain
    assert chain is not None
    assert chain.tools == tuple(components.tools)
    assert [tool.name for tool in chain.tools] == ["greet", "shout"]


def test_core_json_termination_with_schema_import_path(fakes: SimpleNamespace) -> None:
    text = (
        "model: fake\nformat: fake\ntoolchain: calls\n"
        f"termination: {{name: json, schema: '{__name__}:Answer'}}\n"
    )
    components = build(fakes, text)
    assert isinstance(components.termination, JSONTermination)
    assert components.termination.model is Answer


def test_installed_core_plugin_supplies_text_and_json(write_config: Callable[[str], Path]) -> None:
    sandbox = PluginSandbox()
    sandbox.load_installed()
    registry = sandbox.registry()
    assert registry.get("termination", "core:text").factory is TextTermination
    assert registry.get("termination", "core:json").factory is JSONTermination
    path = write_config("model: x\ntermination: {name: 'core:json', schema: 'pkg.mod:Model'}\n")
    loaded = load_config(path)
    assert loaded.config.termination.name == "core:json"


def test_unknown_plugin_name_lists_installed_names_and_suggests(fakes: SimpleNamespace) -> None:
    error = build_error(fakes, "model: fake\nformat: fak\ntoolchain: calls\n")
    assert str(error) == (
        "agent.yaml, line 2, key 'format': no format named 'fak' (did you mean 'fake'?); "
        "installed formats: broken, exploding, fake"
    )


def test_unknown_names_of_every_kind_are_reported_at_once(fakes: SimpleNamespace) -> None:
    text = """\
model: nope
format: fake
toolchain: json
termination:
  name: txt
tools:
  - greet
  - name: calculator
"""
    error = build_error(fakes, text)
    assert str(error).splitlines() == [
        "agent.yaml: 4 problems in the configuration:",
        "agent.yaml, line 1, key 'model': no model named 'nope'; installed models: fake, scripted",
        "agent.yaml, line 3, key 'toolchain': no toolchain named 'json'; installed "
        "toolchains: calls",
        "agent.yaml, line 5, key 'termination.name': no termination named 'txt' (did you mean "
        "'text'?); installed terminations: json, text",
        "agent.yaml, line 8, key 'tools.1.name': no tool named 'calculator'; installed tools: "
        "greet, shout",
    ]


def test_default_component_that_is_not_installed_has_no_line(fakes: SimpleNamespace) -> None:
    # format defaults to xml, toolchain to json: neither is supplied by the fakes
    error = build_error(fakes, "model: fake\n")
    assert str(error).splitlines()[1:] == [
        "agent.yaml, key 'format': no format named 'xml'; installed formats: broken, "
        "exploding, fake",
        "agent.yaml, key 'toolchain': no toolchain named 'json'; installed toolchains: calls",
    ]


def test_ambiguous_name_lists_qualified_choices(fakes: SimpleNamespace) -> None:
    fakes.sandbox.register(fakes.RivalPlugin(), "rival")
    error = build_error(fakes, "model: fake\nformat: fake\ntoolchain: calls\n")
    assert str(error) == (
        "agent.yaml, line 2, key 'format': format 'fake' is supplied by several plugins "
        "(fakes, rival); pick one with a qualified name: fakes:fake, rival:fake"
    )
    components = build(fakes, "model: fake\nformat: rival:fake\ntoolchain: calls\n")
    assert isinstance(components.format, fakes.FakeFormat)


def test_invalid_options_are_located_per_option(fakes: SimpleNamespace) -> None:
    text = """\
model:
  name: fake
  temperature: 9
  top_k: 3
format: {name: fake, strict: maybe}
toolchain: calls
tools:
  - name: greet
    times: many
"""
    error = build_error(fakes, text)
    assert str(error).splitlines() == [
        "agent.yaml: 4 problems in the configuration:",
        "agent.yaml, line 3, key 'model.temperature', plugin 'fakes': expected a number >= 0 "
        "and <= 2, got 9",
        "agent.yaml, line 4, key 'model.top_k', plugin 'fakes': unknown option 'top_k'; "
        "accepted options: temperature, api_key, base_url",
        "agent.yaml, line 5, key 'format.strict', plugin 'fakes': expected true or false, "
        "got 'maybe'",
        "agent.yaml, line 9, key 'tools.0.times', plugin 'fakes': expected an integer, got 'many'",
    ]


def test_explicit_options_mapping_is_located_too(fakes: SimpleNamespace) -> None:
    text = "model: fake\nformat:\n  name: fake\n  options:\n    indent: wide\ntoolchain: calls\n"
    error = build_error(fakes, text)
    assert str(error) == (
        "agent.yaml, line 5, key 'format.options.indent', plugin 'fakes': expected an "
        "integer, got 'wide'"
    )


def test_missing_required_option_points_at_the_component(fakes: SimpleNamespace) -> None:
    error = build_error(fakes, "model: fake\nformat: fake\ntoolchain: calls\ntermination: json\n")
    assert str(error) == (
        "agent.yaml, line 4, key 'termination.schema', plugin 'core': missing required "
        "option 'schema'"
    )


def test_toolchain_tools_parameter_is_not_an_option(fakes: SimpleNamespace) -> None:
    error = build_error(fakes, "model: fake\nformat: fake\ntoolchain: {name: calls, tools: []}\n")
    assert str(error) == (
        "agent.yaml, line 3, key 'toolchain.tools', plugin 'fakes': option 'tools' is set by "
        "gent; remove it"
    )


def test_ready_made_tool_takes_no_options(fakes: SimpleNamespace) -> None:
    text = "model: fake\nformat: fake\ntoolchain: calls\ntools:\n  - {name: shout, loud: true}\n"
    error = build_error(fakes, text)
    assert str(error) == (
        "agent.yaml, line 5, key 'tools.0.loud', plugin 'fakes': tool 'shout' is a ready-made "
        "tool and takes no options; got 'loud'"
    )


def test_constructor_error_names_the_component_without_the_secret(fakes: SimpleNamespace) -> None:
    text = "model: fake\nformat:\n  name: exploding\n  password: ${PW}\ntoolchain: calls\n"
    error = build_error(fakes, text, {"PW": "hunter2-secret"})
    assert str(error) == (
        "agent.yaml, line 3, key 'format.name', plugin 'fakes': format 'exploding' could not "
        "be created: RuntimeError: cannot log in with ***"
    )
    assert error.__cause__ is None


def test_gent_error_from_a_constructor_keeps_its_own_words(fakes: SimpleNamespace) -> None:
    text = (
        "model: fake\nformat: fake\ntoolchain: calls\n"
        "termination: {name: json, schema: 'no.such.module:X'}\n"
    )
    error = build_error(fakes, text)
    assert str(error).startswith(
        "agent.yaml, line 4, key 'termination.schema', plugin 'core': termination 'json': "
        "cannot import 'no.such.module:X': No module named 'no' (looked in the installed "
        "packages and PYTHONPATH, then "
    )


def test_factory_that_does_not_build_the_contract(fakes: SimpleNamespace) -> None:
    error = build_error(fakes, "model: fake\nformat: broken\ntoolchain: calls\n")
    assert str(error) == (
        "agent.yaml, line 2, key 'format', plugin 'fakes': format 'broken' is not a "
        "TextFormat (its factory gave a NotAFormat); the plugin is broken"
    )


def test_duplicate_tools_are_reported(fakes: SimpleNamespace) -> None:
    text = "model: fake\nformat: fake\ntoolchain: calls\ntools: [greet, shout, fakes:greet]\n"
    error = build_error(fakes, text)
    assert str(error) == (
        "agent.yaml, line 4, key 'tools.2': tool 'greet' is listed twice (first as tools.0)"
    )


def test_nothing_is_created_when_any_lookup_fails(fakes: SimpleNamespace) -> None:
    created: list[str] = []
    original = fakes.FakeModel.__init__

    def spy(self: object, **options: object) -> None:
        created.append("model")
        original(self, **options)

    fakes.FakeModel.__init__ = spy
    try:
        build_error(fakes, "model: fake\nformat: nope\ntoolchain: calls\n")
    finally:
        fakes.FakeModel.__init__ = original
    assert created == []

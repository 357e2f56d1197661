"""``gent tools`` and ``gent tools show``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gent_tools_basic.calculator_tool import EXAMPLES as calculator_examples

from gent_core._cli.main import main
from gent_core.testing import PluginSandbox
from tests.strict_json import strict_loads


def test_the_table_lists_each_tool_with_plugin_arguments_and_description(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tools"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["TOOL", "PLUGIN", "ARGUMENTS", "DESCRIPTION"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert list(rows) == ["calculator", "current_time", "greet", "nap", "snapshot", "where"]
    assert rows["calculator"].split()[1] == "basic"
    assert "(expression: string)" in rows["calculator"]
    assert "Evaluate an arithmetic expression" in rows["calculator"]
    assert "(label: string, notes: integer = 1)" in rows["snapshot"]
    assert "(needs options)" in rows["greet"]
    assert "Greet someone in the configured language." in rows["greet"]


def test_json_lists_the_full_schema(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tools", "--json"]) == 0
    tools = {tool["name"]: tool for tool in strict_loads(capsys.readouterr().out)}
    snapshot = tools["snapshot"]
    assert snapshot["plugin"] == "demo"
    assert snapshot["signature"] == "snapshot(label: string, notes: integer = 1)"
    assert snapshot["parameters"]["properties"]["label"] == {
        "type": "string",
        "description": "What to photograph.",
    }
    assert snapshot["parameters"]["required"] == ["label"]
    assert snapshot["writes"] is False
    greet = tools["greet"]
    assert greet["parameters"] is None
    assert greet["options"] == ["language", "excited"]
    assert "cannot be built without options" in greet["error"]


def test_two_plugins_supplying_one_name_are_listed_qualified(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    from gent_tools_basic.calculator_tool import calculator

    from gent_core import hookimpl

    class Copycat:
        @hookimpl
        def gent_register_tools(self) -> list[object]:
            return [calculator]

    installed.register(Copycat(), "copycat")
    assert main(["tools", "--json"]) == 0
    names = [tool["name"] for tool in strict_loads(capsys.readouterr().out)]
    assert "basic:calculator" in names and "copycat:calculator" in names
    assert "calculator" not in names
    assert main(["tools", "show", "copycat:calculator"]) == 0


def test_config_adds_the_tools_of_its_toolsets(
    installed: PluginSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "agent.yaml"
    config.write_text(
        "model: {name: scripted, outputs: []}\nformat: xml\ntoolchain: json\n"
        "tools: [calculator, {notebook: {name: pad}}]\n"
    )
    assert main(["tools", "--config", str(config), "--json"]) == 0
    jot = strict_loads(capsys.readouterr().out)[-1]
    assert jot["name"] == "jot"
    assert jot["toolset"] == "notebook pad"
    assert jot["plugin"] is None
    assert main(["tools", "--config", str(config)]) == 0
    assert "toolset notebook" in capsys.readouterr().out.splitlines()[-1]
    assert main(["tools", "show", "jot", "--config", str(config)]) == 0
    assert "toolset: notebook pad" in capsys.readouterr().out


def test_show_prints_the_schema_and_an_example_in_each_chains_syntax(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tools", "show", "calculator"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("calculator\nplugin: basic\n")
    assert '"expression": {' in out
    json_example = out.split("Example call, tool chain json:\n")[1].split("\n")[0]
    # The calculator declares worked examples: the example call is its first one's.
    declared = json.dumps(dict(calculator_examples[0].arguments))
    assert json_example == f'{{"tool": "calculator", "args": {declared}}}'
    yaml_example = out.split("Example call, tool chain yaml:\n")[1]
    assert yaml_example.startswith("tool: calculator\nargs:\n  expression:")


def test_show_examples_are_what_each_chain_parses_back(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tools", "show", "snapshot", "--json"]) == 0
    shown = strict_loads(capsys.readouterr().out)
    registry = installed.registry()
    assert set(shown["examples"]) == {"json", "yaml"}
    for chain_name, example in shown["examples"].items():
        chain = registry.create("toolchain", chain_name)
        [call] = chain.parse(example["call"])
        assert call.tool == "snapshot"
        assert isinstance(call.args["label"], str)


def test_show_json_before_or_after_the_subcommand(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tools", "--json", "show", "nap"]) == 0
    before = strict_loads(capsys.readouterr().out)
    assert main(["tools", "show", "nap", "--json"]) == 0
    assert strict_loads(capsys.readouterr().out) == before
    assert before["parameters"]["required"] == ["seconds"]


def test_show_an_unknown_tool_suggests_one(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tools", "show", "calculater"]) == 2
    err = capsys.readouterr().err
    assert "no tool named 'calculater' (did you mean 'calculator'?)" in err


def test_show_a_tool_that_needs_options_says_so(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tools", "show", "greet"]) == 2
    assert "cannot be built without options" in capsys.readouterr().err


def test_a_bad_config_is_a_clear_error(
    installed: PluginSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "agent.yaml"
    config.write_text("model: {name: scripted, outputs: []}\ntools: [nope]\n")
    assert main(["tools", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gent tools: error:") and "nope" in err

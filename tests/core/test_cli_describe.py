"""``gent describe``: the system prompt, the exact request for a task (``--prompt``), the
grammar and what constrains each section (sections without a grammar named as unconstrained).
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest
from gent_tools_basic.calculator_tool import calculator, compute

from gent_core._cli.main import main
from gent_core._grammar import check_gbnf
from gent_core.hookspecs import hookimpl
from gent_core.testing import PluginSandbox
from gent_core.toolchain import ToolCall, ToolChain

ROOT = Path(__file__).resolve().parents[2]
CALCULATOR = ROOT / "examples" / "calculator.yaml"


def sections_of(out: str) -> dict[str, str]:
    """The output split at its ``# Title`` lines."""
    parts: dict[str, str] = {}
    title = ""
    for line in out.splitlines(keepends=True):
        if line.startswith("# ") and line[2:].strip()[:1].isupper() and line.strip() != "#":
            title = line[2:].strip()
            parts[title] = ""
        elif title:
            parts[title] += line
    return {key: value.strip("\n") for key, value in parts.items()}


@pytest.mark.llama
def test_describe_prints_the_prompt_the_grammar_and_what_constrains_each_section(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["describe", str(CALCULATOR)]) == 0
    parts = sections_of(capsys.readouterr().out)
    assert parts["System prompt"].startswith("You are a capable assistant")
    check_gbnf(parts["Grammar (GBNF)"] + "\n")
    assert parts["What constrains each section"].splitlines() == [
        "- thinking: free text, from grammar_text of format 'xml' (XMLFormat)",
        "- action: calls of the agent's tools with valid arguments, from grammar_calls of "
        "tool chain JSONToolChain",
        "- answer: free text, from grammar_text of format 'xml' (XMLFormat)",
    ]


@pytest.mark.llama
def test_prompt_prints_the_raw_prompt_a_base_model_reads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["describe", str(CALCULATOR), "--prompt", "What is 17 * 23?"]) == 0
    out = capsys.readouterr().out
    title, _, rest = out.partition("\n\n")
    assert title == "# Request sent by llamacpp gemma-3-270m (default)"
    request = rest.split("\n\n# Grammar (GBNF)\n")[0]
    assert request.startswith("You are a capable assistant")
    example, _, real = request.partition("Now the real task:")
    # the calculator's own worked examples, each with the result the calculator gives
    for declared in calculator.examples[:3]:
        call = json.dumps({"tool": "calculator", "args": dict(declared.arguments)})
        assert f"<task>\n{declared.task}\n</task>" in example
        assert f"<action>\n{call}\n</action>" in example
        observed = f"<calculator>\n{json.dumps(declared.result)}\n</calculator>"
        assert observed in example
        assert declared.result == compute(declared.arguments["expression"])
    assert real.strip() == "<task>\nWhat is 17 * 23?\n</task>"


def test_prompt_with_a_back_end_that_cannot_show_requests_shows_the_system_prompt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "agent.yaml"
    config.write_text("model: {name: scripted, outputs: []}\nformat: xml\ntoolchain: json\n")
    assert main(["describe", str(config), "--prompt", "Hi"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("# System prompt\n\n")
    assert "does not show its requests (Model.render_request)" in captured.err


class LineChain(ToolChain):
    """A third-party chain offering no grammar: ``tool arg=value`` lines."""

    @property
    def guidance(self) -> str:
        return "One call per line: tool key=value.\n" + self.describe_tools()

    def parse(self, content: str) -> list[ToolCall]:
        calls = []
        for line in content.strip().splitlines():
            name, *pairs = line.split()
            calls.append(ToolCall(name, dict(pair.split("=", 1) for pair in pairs)))
        return calls

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        return "\n".join(
            " ".join([call.tool, *(f"{k}={v}" for k, v in call.args.items())]) for call in calls
        )


@hookimpl
def gent_register_toolchains() -> Mapping[str, Callable[..., ToolChain]]:
    return {"lines": LineChain}


@pytest.mark.llama
def test_a_section_without_a_grammar_is_named_unconstrained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gent_plugins: PluginSandbox
) -> None:
    gent_plugins.load_installed()
    plugin = types.ModuleType("gent_lines")
    plugin.gent_register_toolchains = gent_register_toolchains  # type: ignore[attr-defined]
    gent_plugins.register(plugin, "lines")
    config = tmp_path / "agent.yaml"
    config.write_text("model: llamacpp\nformat: markdown\ntoolchain: lines\ntools: [calculator]\n")
    with gent_plugins.as_process_manager():
        assert main(["describe", str(config), "--prompt", "What is 2 + 2?"]) == 0
    parts = sections_of(capsys.readouterr().out)
    request = parts["Request sent by llamacpp gemma-3-270m (default)"]
    assert "# action\ncalculator expression=12.5 times 8\n" in request  # by format_calls
    coverage = parts["What constrains each section"]
    assert (
        "- action: unconstrained: tool chain LineChain offers no grammar (grammar_calls "
        "returned None), so the section holds any text that cannot close it"
    ) in coverage.splitlines()


def test_describe_reports_why_no_grammar_is_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], gent_plugins: PluginSandbox
) -> None:
    """A back end whose grammar cannot be built says why (instead of printing nothing)."""
    import logging

    from gent_core.model import Model, OutputStructure
    from gent_core.testing import ScriptedModel

    class Constraining(ScriptedModel):
        def grammar(self, structure: OutputStructure) -> str | None:
            logging.getLogger("gent.test").warning("no grammar for this agent: the reason")
            return None

    @hookimpl
    def gent_register_models() -> Mapping[str, Callable[..., Model]]:
        return {"constraining": Constraining}

    gent_plugins.load_installed()
    plugin = types.ModuleType("gent_constraining")
    plugin.gent_register_models = gent_register_models  # type: ignore[attr-defined]
    gent_plugins.register(plugin, "constraining")
    config = tmp_path / "agent.yaml"
    config.write_text("model: {name: constraining, outputs: []}\nformat: xml\ntoolchain: json\n")
    with gent_plugins.as_process_manager():
        assert main(["describe", str(config)]) == 0
    parts = sections_of(capsys.readouterr().out)
    assert parts["Grammar"] == "none: no grammar for this agent: the reason"
    assert json.dumps(parts)  # plain text sections

"""gent-pythonic as a plugin: registration, entry point, options, the few-shot prompt written
through the contract, and whole agent runs (a scripted model; the local model is in
``test_pythonic_local_model.py``)."""

from __future__ import annotations

import asyncio
import json
from importlib import metadata
from pathlib import Path

import pytest
from gent_prompt import render_prompt
from gent_pythonic import PythonicToolChain, plugin
from gent_tools_basic.calculator_tool import EXAMPLES as calculator_examples
from gent_xml import XMLFormat

from gent_core import Agent, RunResult, TextTermination, load_config
from gent_core.errors import ConfigError
from gent_core.messages import Message
from gent_core.model import OutputStructure
from gent_core.sections import TextSection
from gent_core.testing import KIT_TOOLS, PluginSandbox, ScriptedModel


def test_the_plugin_registers_the_pythonic_chain(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "pythonic")
    registry = gent_plugins.registry()
    assert registry.names("toolchain") == ["pythonic"]
    chain = registry.create("toolchain", "pythonic", tools=list(KIT_TOOLS), positional=False)
    assert isinstance(chain, PythonicToolChain)
    assert chain.positional is False and chain.name == "action"


def test_the_entry_point_names_the_plugin_module() -> None:
    points = metadata.entry_points(group="gent", name="pythonic")
    assert [point.value for point in points] == ["gent_pythonic.plugin"]


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"positional": "yes"}, "positional must be true or false"),
        ({"max_chars": 0}, "max_chars must be a whole number of at least 1"),
        ({"max_chars": True}, "max_chars must be a whole number of at least 1"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        PythonicToolChain(KIT_TOOLS, **options)  # type: ignore[arg-type]


def test_results_are_written_as_json_strings_as_they_are() -> None:
    chain = PythonicToolChain(KIT_TOOLS)
    assert chain.format_output({"ok": True, "value": None, "items": [1, 2.5]}) == (
        '{"ok": true, "value": null, "items": [1, 2.5]}'
    )
    assert chain.format_output("391") == "391"


def test_the_few_shot_prompt_shows_the_chains_own_calls() -> None:
    chain = PythonicToolChain(KIT_TOOLS)
    termination = TextTermination()
    fmt = XMLFormat()
    structure = OutputStructure(
        fmt, [TextSection("thinking", "Think."), chain, termination], chain, termination
    )
    prompt = render_prompt(
        [Message.system("You are an agent."), Message.user("What is 17 * 23?")], structure
    )
    example, _, real = prompt.partition("Now the real task:")
    # the kit's tools declare no worked examples: made-up tools, in the chain's own syntax
    assert '<action>\nmountain_height(name="Kilimanjaro")\n</action>' in example
    assert '<action>\ncity_population(city="Lyon")\ncity_population(city="Porto")\n</action>' in (
        example
    )
    assert "<observation>\n<mountain_height>\n5895 m\n</mountain_height>\n</observation>" in example
    assert real.strip() == "<task>\nWhat is 17 * 23?\n</task>"


AGENT = """\
model:
  name: scripted
  outputs: {outputs}
format: xml
toolchain: {chain}
tools: [calculator]
max_steps: 4
"""


def run(tmp_path: Path, outputs: list[str], chain: str = "pythonic") -> tuple[Agent, RunResult]:
    path = tmp_path / "agent.yaml"
    path.write_text(AGENT.format(outputs=json.dumps(outputs), chain=chain))
    agent = Agent.from_config(load_config(path))
    return agent, asyncio.run(agent.run("What is 17 * 23?"))


def test_an_agent_runs_pythonic_calls_and_answers(tmp_path: Path) -> None:
    agent, result = run(
        tmp_path,
        [
            "<thinking>I multiply.</thinking>\n<action>\n```python\n"
            'calculator(expression="17 * 23")  # the product\n```\n</action>',
            "<thinking>I have it.</thinking>\n<answer>391</answer>",
        ],
    )
    assert result.ok, result.message
    steps = result.steps
    assert [(c.tool, c.args, c.status, c.output) for c in steps[0].calls] == [
        ("calculator", {"expression": "17 * 23"}, "success", 391)
    ]
    assert "<calculator>\n391\n</calculator>" in steps[0].followup
    assert result.answer == "391"
    assert isinstance(agent.model, ScriptedModel)
    system = agent.model.requests[0].messages[0].text
    # The guidance shows a made-up tool in Python syntax, never a declared example's value.
    assert 'city_population(city="Lyon")' in system
    expression = calculator_examples[0].arguments["expression"]
    assert expression not in system
    assert "- calculator(expression: str) — " in system


def test_a_forbidden_call_is_told_to_the_model_and_the_run_goes_on(tmp_path: Path) -> None:
    _, result = run(
        tmp_path,
        [
            '<action>\ncalculator(expression=__import__("os").system("echo pwned"))\n</action>',
            "<action>\ncalculator(expression=17 * 23)\n</action>",
            '<action>\ncalculator(expression="17 * 23")\n</action>',
            "<answer>391</answer>",
        ],
    )
    assert result.ok, result.message
    first, second, third = result.steps[:3]
    assert first.outcome == "feedback" and first.error_kind == "PythonCallError"
    assert "has a call nested as an argument" in first.followup
    assert second.outcome == "feedback"
    assert 'if it is meant as text, write "17 * 23"' in second.followup
    assert [c.output for c in third.calls] == [391]


def test_a_cut_off_call_is_never_run(tmp_path: Path) -> None:
    _, result = run(
        tmp_path,
        ['<action>\ncalculator(expression="17 * 2', "<answer>I stop.</answer>"],
    )
    first = result.steps[0]
    assert first.outcome == "feedback" and first.calls == []


def test_a_bad_option_in_a_config_names_it(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text(AGENT.format(outputs="[]", chain="{name: pythonic, positional: sometimes}"))
    with pytest.raises(ConfigError) as caught:
        Agent.from_config(load_config(path))
    assert "line 5, key 'toolchain.positional', plugin 'pythonic': expected true or false" in str(
        caught.value
    )

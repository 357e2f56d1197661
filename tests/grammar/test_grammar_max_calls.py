"""The action grammar holds as many calls as ``limits.max_calls_per_action``, for every shipped
tool chain: the bound reaches the grammar through the agent's output structure."""

from __future__ import annotations

from pathlib import Path

import pytest

from gent_core._agent import Agent
from gent_core._config import load_config
from gent_core._grammar import MAX_CALLS, GrammarMatcher, build_agent_grammar
from gent_core._plugins import Registry
from gent_core._terminations.text import TextTermination
from gent_core.context import Limits
from gent_core.sections import FormattedSection
from gent_core.testing import PluginSandbox, ScriptedModel
from gent_core.toolchain import ToolCall
from gent_core.tools import DeclaredTool

CHAINS = ["json", "yaml", "natural", "pythonic"]
CITY = DeclaredTool(
    "city.population",
    "Population of a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)


@pytest.fixture(scope="module")
def registry() -> Registry:
    sandbox = PluginSandbox()
    sandbox.load_installed()
    return sandbox.registry()


def matcher(registry: Registry, chain: str, limits: Limits | None) -> tuple[GrammarMatcher, Agent]:
    agent = Agent(
        ScriptedModel([]),
        registry.create("format", "xml"),
        registry.create("toolchain", chain),
        TextTermination(),
        tools=[CITY],
        thinking=False,
        limits=limits,
    )
    return GrammarMatcher(build_agent_grammar(agent.structure()).text), agent


def action(agent: Agent, count: int) -> str:
    assert agent.toolchain is not None
    calls = [ToolCall("city.population", {"city": f"city {n}"}) for n in range(count)]
    return agent.format.format_sections(
        [FormattedSection("action", agent.toolchain.format_calls(calls))]
    ).rstrip("\n")


@pytest.mark.parametrize("chain", CHAINS)
def test_the_grammar_allows_the_configured_number_of_calls(registry: Registry, chain: str) -> None:
    grammar, agent = matcher(registry, chain, Limits(max_calls_per_action=3))
    assert agent.structure().max_calls == 3
    assert grammar.matches(action(agent, 1))
    assert grammar.matches(action(agent, 3))
    assert not grammar.matches(action(agent, 4))


@pytest.mark.parametrize("chain", CHAINS)
def test_by_default_an_action_holds_sixteen_calls(registry: Registry, chain: str) -> None:
    """Eight parallel calls (BFCL's largest tasks) fit; a model repeating a call forever does
    not."""
    grammar, agent = matcher(registry, chain, None)
    assert Limits().max_calls_per_action == MAX_CALLS == 16
    assert grammar.matches(action(agent, 8))
    assert grammar.matches(action(agent, 16))
    assert not grammar.matches(action(agent, 17))


def test_the_config_limit_reaches_the_grammar(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text(
        "model: {name: scripted, outputs: []}\n"
        "thinking: false\n"
        "tools: [{declare: {name: city.population, parameters: {properties: "
        "{city: {type: string}}, required: [city]}}}]\n"
        "limits: {max_calls_per_action: 2}\n"
    )
    agent = Agent.from_config(load_config(path))
    grammar = GrammarMatcher(build_agent_grammar(agent.structure()).text)
    assert grammar.matches(action(agent, 2))
    assert not grammar.matches(action(agent, 3))

"""Instruct models behind a real server (issue 23): SmolLM2-135M-Instruct served by llama.cpp's
OpenAI-compatible server with its own chat template (the ``instruct_server`` fixture,
``tools/instruct_model.py``), through the ``openai`` model with its default options.

Greedy decoding and short budgets: the machine running the tests may be slow and loaded.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from gent_json.chain import JSONToolChain
from gent_openai.model import OpenAIModel
from gent_openai.options import DEFAULT_THINKING_BUDGET
from gent_xml.format import XMLFormat

from gent_core import Agent, tool
from gent_core.context import Limits
from gent_core.grammar import GrammarMatcher, build_agent_grammar
from gent_core.messages import Message
from gent_core.model import ModelRequest, OutputStructure

pytestmark = [pytest.mark.slow, pytest.mark.model]

TASK = "What is the circumference of a circle of radius 3? Use the circle_circumference tool."


@tool
def geometry_circumference(radius: float) -> float:
    """The circumference of a circle of ``radius``."""
    return 2 * 3.14159 * radius


def agent(server: Any, **options: Any) -> Agent:
    model = OpenAIModel(base_url=server.url, model=server.model, temperature=0, **options)
    tools = [geometry_circumference]
    return Agent(model, XMLFormat(), JSONToolChain(), tools=tools, limits=Limits(max_steps=1))


def generate(a: Agent, structure: OutputStructure, task: str = TASK) -> tuple[str, str | None]:
    """One model call of agent ``a`` for ``task``: its text and finish reason."""
    messages = [Message.system(a.system_prompt()), Message.user(task)]
    request = ModelRequest(messages, stop=["</action>"], structure=structure)

    async def go() -> tuple[str, str | None]:
        texts: list[str] = []
        finish: str | None = None
        try:
            async for chunk in a.model.stream(request):
                texts.append(chunk.text)
                finish = chunk.finish_reason or finish
        finally:
            await a.model.aclose()
        return "".join(texts), finish

    return asyncio.run(go())


def test_grammar_auto_is_on_for_llama_cpp_so_no_unknown_tool_can_be_named(
    instruct_server: Any,
) -> None:
    a = agent(instruct_server, max_tokens=120, thinking_budget=40)
    model = a.model
    assert isinstance(model, OpenAIModel)
    whole = a.structure()
    # An output that must act: thinking, then the action (no answer section to escape to).
    acting = OutputStructure(
        whole.format,
        [section for section in whole.sections if section.name != "answer"],
        whole.toolchain,
        None,
    )
    text, _ = generate(a, acting)
    assert model.describe().endswith("(grammar: the server's 'grammar' field)")
    assert "grammar" in model.request_body(ModelRequest([], structure=acting), stream=True)
    output = text + "</action>"  # the stop sequence the server dropped
    assert GrammarMatcher(build_agent_grammar(acting).text).matches(output), output
    calls = JSONToolChain().parse(output.split("<action>", 1)[1].split("</action>")[0])
    assert [call.tool for call in calls] and {call.tool for call in calls} == {
        "geometry_circumference"
    }, output


def test_an_output_cut_at_the_output_budget_is_reported_as_cut(instruct_server: Any) -> None:
    a = agent(instruct_server, max_tokens=6, grammar=False)
    result = a.run_sync("Explain in detail how a circle's circumference is computed.")
    first = result.steps[0]
    assert first.model.finish_reason == "length"
    assert first.outcome == "feedback"
    assert first.error_kind == "TruncatedOutputError"
    assert first.feedback is not None and "cut off" in first.feedback


def test_past_the_thinking_budget_the_output_goes_on_in_the_action(instruct_server: Any) -> None:
    budget = 30
    a = agent(instruct_server, max_tokens=60, grammar=False, thinking_budget=budget)
    text, _ = generate(a, a.structure(), "Explain at length how to compute a circumference.")
    bridge = "\n</thinking>\n<action>\n"
    assert text.count(bridge) == 1, text
    thinking = text.split("<thinking>", 1)[1].split(bridge, 1)[0]
    assert budget < len(thinking) <= budget + 40  # stopped at the first token past the budget
    assert text.split(bridge, 1)[1].strip()  # the continuation wrote into the action


def test_by_default_a_thinking_that_runs_to_the_token_limit_is_cut_and_acted_on(
    instruct_server: Any,
) -> None:
    """Without a budget (the old default) the thinking of this task runs to ``max_tokens``
    and the output is unusable; with the default options, llama.cpp's server gets the
    default budget and the output ends in a complete action or answer."""
    task = "Explain at length, step by step, how to compute a circumference."
    unbounded = agent(instruct_server, max_tokens=150, thinking_budget=None)
    text, finish = generate(unbounded, unbounded.structure(), task)
    assert finish == "length" and "</thinking>" not in text, text  # the case the default fixes

    a = agent(instruct_server, max_tokens=150)
    text, _ = generate(a, a.structure(), task)
    model = a.model
    assert isinstance(model, OpenAIModel)
    assert model.thinking_budget() == DEFAULT_THINKING_BUDGET
    assert text.count("</thinking>") == 1, text
    thinking = text.split("<thinking>", 1)[1].split("</thinking>", 1)[0]
    assert len(thinking) <= DEFAULT_THINKING_BUDGET + 40, text  # stopped at the budget
    output = text if text.rstrip().endswith(">") else text + "</action>"  # the dropped stop
    structure = a.structure()
    parsed = structure.format.parse(output, structure.sections)
    sections = {part.name: part for part in parsed.sections}
    usable = [sections[name] for name in ("action", "answer") if name in sections]
    assert usable and usable[0].complete and usable[0].content, text

"""A call that does not validate is repaired, not retried blindly: the model writes that one
call again, under that tool's grammar, with the error in front of it, within
``limits.max_repairs`` tries, before anything runs."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gent_xml import XMLFormat

from gent_core._agent import Agent
from gent_core._grammar import GrammarMatcher, build_agent_grammar
from gent_core._transcript.lines import load_transcript
from gent_core.context import Limits
from gent_core.events import FeedbackSent
from gent_core.sections import FormattedSection
from gent_core.testing import ScriptedModel

MakeAgent = Callable[..., Agent]


def calls(*pairs: tuple[str, dict[str, Any]]) -> str:
    written = [{"tool": name, "args": args} for name, args in pairs]
    body = json.dumps(written[0] if len(written) == 1 else written)
    return f"<thinking>I call.</thinking>\n<action>\n{body}\n</action>"


def test_a_call_with_bad_arguments_is_written_again_and_the_others_stand(
    make_agent: MakeAgent,
) -> None:
    model = ScriptedModel(
        [
            calls(("add", {"a": 1, "b": 2}), ("add", {"a": "one", "b": 2})),
            calls(("add", {"a": 1, "b": 20})),  # the repair of call 2
            "<answer>3 and 21</answer>",
        ]
    )
    agent = make_agent(model)
    result = agent.run_sync("Add 1 and 2, and 1 and 20.")
    assert result.ok, result.message
    (step, _) = result.steps
    assert [(c.tool, c.args, c.output) for c in step.calls] == [
        ("add", {"a": 1, "b": 2}, 3),
        ("add", {"a": 1, "b": 20}, 21),
    ]
    (repair,) = step.repairs
    assert (repair.call, repair.tool, repair.ok) == (1, "add", True)
    assert "Argument 'a': expected an integer" in repair.error
    # the request is in front of the model: the error, and what to write
    request = model.requests[1]
    assert request.messages[-1].text == repair.request
    assert "Call 2 (add) could not be used: " in repair.request
    assert "Write that one call again, correctly, in the action section" in repair.request
    # under that tool's grammar: one call of that tool, no answer section
    structure = request.structure
    assert structure is not None and structure.termination is None
    assert structure.max_calls == 1
    assert structure.toolchain is not None
    assert [tool.name for tool in structure.toolchain.tools] == ["add"]
    grammar = GrammarMatcher(build_agent_grammar(structure).text)

    def written(action: str | None = None, answer: str | None = None) -> str:
        sections = [FormattedSection("thinking", "x")]
        sections += [FormattedSection("action", action)] if action else []
        sections += [FormattedSection("answer", answer)] if answer else []
        return XMLFormat().format_sections(sections).rstrip("\n")

    assert grammar.matches(written('{"tool": "add", "args": {"a": 1, "b": 20}}'))
    assert not grammar.matches(written('{"tool": "note", "args": {"text": "x"}}'))
    assert not grammar.matches(written(answer="21"))
    # the agent's own chain still offers every tool
    assert agent.toolchain is not None and len(agent.toolchain.tools) == 4
    # the conversation holds the request and the repair, then the observation
    roles = [message.role for message in model.requests[2].messages]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]
    assert "<add>\n21\n</add>" in model.requests[2].messages[-1].text


def test_an_unknown_tool_is_repaired_to_a_known_one(make_agent: MakeAgent) -> None:
    model = ScriptedModel(
        [calls(("plus", {"a": 2, "b": 3})), calls(("add", {"a": 2, "b": 3})), "<answer>5</answer>"]
    )
    result = make_agent(model).run_sync("2 + 3?")
    assert result.answer == "5"
    assert [(c.tool, c.output) for c in result.steps[0].calls] == [("add", 5)]
    (repair,) = result.steps[0].repairs
    assert repair.tool is None and repair.ok
    assert "Unknown tool 'plus'" in repair.error
    structure = model.requests[1].structure
    assert structure is not None and structure.toolchain is not None
    assert len(structure.toolchain.tools) == 4  # any tool may be named


def test_a_repair_that_fails_is_tried_again_within_the_budget(
    make_agent: MakeAgent, events: Any
) -> None:
    model = ScriptedModel(
        [
            calls(("add", {"a": 1})),
            "<answer>no call</answer>",  # not a call: a failed try
            calls(("add", {"a": 1, "b": "x"})),  # still invalid
            "<answer>gave up</answer>",
        ]
    )
    result = make_agent(model).run_sync("q", on_event=events)
    first = result.steps[0]
    assert [repair.ok for repair in first.repairs] == [False, False]
    assert "No recognised section found" in first.repairs[1].error
    assert "Missing required argument 'b'" in model.requests[3].messages[-1].text  # observation
    assert first.calls[0].status == "error" and first.calls[0].args == {"a": 1}
    assert len(events.of(FeedbackSent)) == 2
    assert result.answer == "gave up"


def test_no_repair_when_the_budget_is_zero(make_agent: MakeAgent) -> None:
    model = ScriptedModel([calls(("add", {"a": 1})), "<answer>told</answer>"])
    agent = make_agent(model, limits=Limits(max_steps=4, max_repairs=0))
    result = agent.run_sync("q")
    assert result.answer == "told"
    assert result.steps[0].repairs == [] and result.steps[0].calls[0].status == "error"


def test_a_resumed_run_replays_the_repair(make_agent: MakeAgent, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    first = ScriptedModel([calls(("add", {"a": 1})), calls(("add", {"a": 1, "b": 1}))])
    agent = make_agent(first, limits=Limits(max_steps=1))
    assert agent.run_sync("1 + 1?", transcript=path).stop_reason == "max_steps"
    (step,) = load_transcript(path).steps
    assert [repair.ok for repair in step.repairs] == [True]
    # a transcript that the run did not finish: drop its end line and resume
    lines = path.read_text().splitlines()
    path.write_text("\n".join(line for line in lines if '"type": "end"' not in line) + "\n")
    second = ScriptedModel(["<answer>2</answer>"])
    resumed = asyncio.run(make_agent(second).resume(path))
    assert resumed.answer == "2"
    history = [message.text for message in second.requests[0].messages]
    assert step.repairs[0].request in history
    assert step.repairs[0].output in history

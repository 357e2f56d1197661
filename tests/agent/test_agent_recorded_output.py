"""What a run records of a tool's output is bounded (issue 17): a tool returning far more than
``limits.max_recorded_output_chars`` is recorded cut in ``--json`` and the transcript, and the
record says how long the output was; the transcript still reads back and resumes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gent_core._agent import Agent, ToolCallFinished
from gent_core._transcript.lines import load_transcript
from gent_core.context import Limits
from gent_core.events import AgentEvent
from gent_core.testing import ScriptedModel
from gent_core.tools import tool

MakeAgent = Callable[..., Agent]


@tool
def dump(size: int) -> str:
    """Return ``size`` characters of text."""
    return ("0123456789" * (size // 10 + 1))[:size]


@tool
def rows(count: int) -> list[dict[str, int]]:
    """Return ``count`` rows of data."""
    return [{"row": number, "value": number * 2} for number in range(count)]


def call(tool_name: str, **args: Any) -> str:
    return f"<action>{json.dumps({'tool': tool_name, 'args': args})}</action>"


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_huge_text_output_is_recorded_cut_and_says_so(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    model = ScriptedModel(
        [call("dump", size=50_000), call("dump", size=1_000), "<answer>ok</answer>"]
    )
    limits = Limits(max_recorded_output_chars=1_000, max_tool_output_chars=300)
    agent = make_agent(model, tools=[dump], limits=limits)
    result = agent.run_sync("q", transcript=path)
    assert result.ok
    big, fits = (result.to_dict()["steps"][index]["calls"][0] for index in (0, 1))
    assert big["output"] == ("0123456789" * 100)
    assert big["output_truncated"] == {"chars": 50_000, "recorded_chars": 1_000}
    # An output of exactly the bound is recorded whole, with no note.
    assert len(fits["output"]) == 1_000 and "output_truncated" not in fits
    # The transcript holds the same bounded record, and reads it back.
    written = lines(path)[1]["calls"][0]
    assert written == big
    read = load_transcript(path).steps[0].calls[0]
    assert (len(read.output), read.output_chars) == (1_000, 50_000)
    # What the model read is unchanged: cut to max_tool_output_chars, with its own note.
    assert "[... 49700 more characters cut]" in model.requests[1].messages[-1].text


def test_a_huge_structured_output_is_recorded_as_the_start_of_its_json(
    make_agent: MakeAgent,
) -> None:
    model = ScriptedModel([call("rows", count=2_000), call("rows", count=2), "<answer>ok</answer>"])
    agent = make_agent(model, tools=[rows], limits=Limits(max_recorded_output_chars=500))
    result = agent.run_sync("q")
    big = result.steps[0].calls[0]
    whole = json.dumps([{"row": number, "value": number * 2} for number in range(2_000)])
    assert (big.output, big.output_chars) == (whole[:500], len(whole))
    assert big.to_dict()["output_truncated"] == {"chars": len(whole), "recorded_chars": 500}
    small = result.steps[1].calls[0]
    assert small.output == [{"row": 0, "value": 0}, {"row": 1, "value": 2}]
    assert small.output_chars is None


def test_a_run_with_a_cut_record_resumes(make_agent: MakeAgent, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    first = make_agent(
        ScriptedModel([call("dump", size=20_000), "<answer>never</answer>"]),
        tools=[dump],
        limits=Limits(max_recorded_output_chars=100),
    )

    def stop(event: AgentEvent) -> None:
        if isinstance(event, ToolCallFinished):
            first.cancel("interrupted")

    assert first.run_sync("q", on_event=stop, transcript=path).stop_reason == "cancelled"
    # As if the process had been killed after the first step: no end line.
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:-1]))
    # The same call again: the earlier result was recorded cut, so it is not claimed to be
    # the same (only the milder note that the call was made before).
    model = ScriptedModel([call("dump", size=20_000), "<answer>done</answer>"])
    second = make_agent(model, tools=[dump], limits=Limits(max_recorded_output_chars=100))
    result = asyncio.run(second.resume(path))
    assert result.answer == "done"
    assert [step.index for step in result.steps] == [1, 2, 3]
    assert result.steps[0].calls[0].output_chars == 20_000
    observation = model.requests[1].messages[-1].text
    assert "you already called dump with these arguments in step 1; this is its newer" in (
        observation
    )

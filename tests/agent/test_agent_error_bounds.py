"""A tool's error text is bounded as its output is: cut to ``limits.max_tool_output_chars`` in
the observation (and so in the step's follow-up) and to ``limits.max_recorded_output_chars``
in the record (issue 24, section 4: a 20 MB exception became a 40 MB transcript)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gent_core._agent import Agent
from gent_core._transcript.lines import load_transcript
from gent_core.context import Limits
from gent_core.errors import ToolExecutionError
from gent_core.testing import ScriptedModel
from gent_core.tools import ToolResult, tool

MakeAgent = Callable[..., Agent]

HUGE = 2_000_000


@tool
def explode() -> str:
    """Raise an exception with a huge message."""
    raise RuntimeError("x" * HUGE)


@tool
def refuse() -> ToolResult:
    """Return an error result whose error text is huge."""
    return ToolResult(
        output=None, status="error", error=ToolExecutionError("refused", model_message="y" * HUGE)
    )


def run_once(make_agent: MakeAgent, name: str, path: Path) -> tuple[ScriptedModel, Agent]:
    model = ScriptedModel(
        [
            f'<action>{{"tool": "{name}", "args": {{}}}}</action>',
            "<answer>done</answer>",
        ]
    )
    agent = make_agent(model, tools=[explode, refuse])
    assert agent.run_sync("q", transcript=path).ok
    return model, agent


def test_a_huge_exception_is_cut_in_the_observation_the_record_and_the_transcript(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    model, _ = run_once(make_agent, "explode", path)
    limits = Limits()
    observation = model.requests[1].messages[-1].text
    assert len(observation) < limits.max_tool_output_chars + 200
    assert "more characters cut]" in observation
    (step, _) = load_transcript(path).steps
    error = step.calls[0].error
    assert error is not None and error.startswith("Tool 'explode' failed: RuntimeError: xxx")
    assert len(error) < limits.max_recorded_output_chars + 100
    assert error.endswith("more characters cut]")
    assert len(step.followup) < limits.max_tool_output_chars + 200
    assert path.stat().st_size < 4 * limits.max_recorded_output_chars  # was over 4 MB


def test_an_error_result_is_cut_to_the_bounds_that_are_set(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    model = ScriptedModel(['<action>{"tool": "refuse", "args": {}}</action>', "<answer>x</answer>"])
    limits = Limits(max_tool_output_chars=500, max_recorded_output_chars=1000)
    agent = make_agent(model, tools=[refuse], limits=limits)
    result = agent.run_sync("q")
    observation = model.requests[1].messages[-1].text
    assert "y" * 400 in observation
    assert f"[... {HUGE + len('Error: ') - 500} more characters cut]" in observation
    error = result.steps[0].calls[0].error
    assert error == "y" * 1000 + f"\n[... {HUGE - 1000} more characters cut]"

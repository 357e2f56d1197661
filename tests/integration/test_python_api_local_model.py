"""The README's Python example on the bundled local model: an agent by plugin name, with a
tool defined in code beside an installed one (issue 19, section 1).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gent_core import Agent, Limits, tool


@tool
def word_count(text: str) -> int:
    """Count the words of a text."""
    return len(text.split())


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.llama
def test_an_agent_by_plugin_name_runs_on_the_local_model(tmp_path: Path) -> None:
    agent = Agent(
        "llamacpp",
        format="xml",
        toolchain="json",
        tools=["calculator", word_count],
        limits=Limits(max_steps=3),
        working_directory=tmp_path,
    )
    assert type(agent.model).__name__ == "LlamaCppModel"
    assert "word_count(text: string" in agent.system_prompt()
    result = agent.run_sync("How many words are in 'to be or not to be'?")
    assert result.stop_reason in {
        "answer",
        "max_steps",
        "max_model_calls",
        "tool_errors",
        "repeated_failure",
    }, result.message
    assert result.steps, "no model call was made"
    # The grammar built from these parts holds every step to an action or an answer...
    assert all(step.outcome in {"action", "answer"} for step in result.steps), [
        (step.outcome, step.feedback) for step in result.steps
    ]
    # ...and every call names one of the tools offered, the code tool or the named one.
    calls = {call.tool for step in result.steps for call in step.calls}
    assert calls <= {"calculator", "word_count"}
    assert result.stats.tokens_reported

"""A credential used as a JSON key is stored as it is (issue 24, section 6; the decision is
documented in docs/configuration.md, "What gent masks, and what it never changes"): keys are
never rewritten, so the transcript and ``--json`` hold the key unmasked, while the same
credential as a value is masked and the live view, which shows free text, masks both."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gent_core._agent import Agent
from gent_core._cli.live import LiveView
from gent_core._config.secrets import Redactor
from gent_core.records import redact_record
from gent_core.testing import ScriptedModel
from gent_core.tools import tool

MakeAgent = Callable[..., Agent]

SECRET = "sk-live-abcdef123456"


@tool
def store(data: dict[str, Any]) -> str:
    """Store a mapping."""
    return f"stored {len(data)} entries"


@tool
def lookup() -> dict[str, Any]:
    """Return a mapping whose key is a credential."""
    return {SECRET: SECRET, "plain": 1}


def run(make_agent: MakeAgent, tmp_path: Path, call: dict[str, Any]) -> tuple[Any, Path, str]:
    model = ScriptedModel([f"<action>{json.dumps(call)}</action>", "<answer>ok</answer>"])
    redactor = Redactor([SECRET])
    agent = make_agent(model, tools=[store, lookup], redact=redactor.redact)
    path = tmp_path / "run.jsonl"
    shown = io.StringIO()
    live = LiveView(shown, io.StringIO(), color=False, redactor=redactor)
    result = agent.run_sync("Keep it.", transcript=path, on_event=live)
    assert result.ok, result.message
    printed = redact_record(result.to_dict(), redactor.redact)  # what --json writes
    return printed, path, shown.getvalue()


def test_a_credential_the_model_writes_as_a_key_is_stored_and_its_value_masked(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    call = {"tool": "store", "args": {"data": {SECRET: SECRET}}}
    printed, path, shown = run(make_agent, tmp_path, call)
    assert printed["steps"][0]["calls"][0]["args"] == {"data": {SECRET: "***"}}
    step_line = next(
        json.loads(line)
        for line in path.read_text(encoding="utf-8").splitlines()
        if json.loads(line).get("type") == "step"
    )
    assert step_line["calls"][0]["args"] == {"data": {SECRET: "***"}}
    assert SECRET not in shown  # the live view shows free text: masked there


def test_a_credential_a_tool_returns_as_a_key_is_stored_and_its_value_masked(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    printed, path, shown = run(make_agent, tmp_path, {"tool": "lookup", "args": {}})
    assert printed["steps"][0]["calls"][0]["output"] == {SECRET: "***", "plain": 1}
    assert f'"{SECRET}": "***"' in path.read_text(encoding="utf-8")
    assert SECRET not in shown

"""The JSONL transcript: written step by step, secrets redacted, kill-and-resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gent_core._agent import Agent
from gent_core._config.secrets import Redactor
from gent_core._transcript.lines import load_transcript
from gent_core.errors import GentError
from gent_core.testing import ScriptedModel

MakeAgent = Callable[..., Agent]


def action(tool_name: str, **args: Any) -> str:
    return f"<action>{json.dumps({'tool': tool_name, 'args': args})}</action>"


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_transcript_records_every_step(make_agent: MakeAgent, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    model = ScriptedModel([action("add", a=2, b=2), "nonsense", "<answer>4</answer>"])
    result = make_agent(model).run_sync("add things", transcript=path)
    records = lines(path)
    assert [r["type"] for r in records] == ["run", "step", "step", "step", "end"]
    header = records[0]
    assert header["task"] == "add things"
    assert header["version"] == 1
    assert header["system_prompt"].startswith("You are a capable assistant")
    assert records[1]["calls"][0] == {
        "id": "call_0", "tool": "add", "args": {"a": 2, "b": 2},
        "status": "success", "output": 4, "error": None,
    }  # fmt: skip
    assert records[2]["outcome"] == "feedback"
    assert records[3]["answer"] == "4"
    assert records[4]["stop_reason"] == "answer"
    assert records[4]["stats"] == result.stats.to_dict()


def test_transcript_redacts_secrets(make_agent: MakeAgent, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    secret = "sk-very-secret-key"
    model = ScriptedModel([f"<answer>the key is {secret}</answer>"])
    agent = make_agent(
        model,
        redact=lambda text: text.replace(secret, "***"),
        config_summary={"model": {"name": "openai", "api_key": secret}},
    )
    agent.run_sync(f"use {secret}", transcript=path)
    header, step, end = (json.loads(line) for line in path.read_text().splitlines())
    assert header["config"] == {"model": {"name": "openai", "api_key": "***"}}
    assert step["output"] == "<answer>the key is ***</answer>"  # the model's text
    # the task and the answer are the user's text: recorded exactly, never redacted
    assert header["task"] == f"use {secret}"
    assert step["answer"] == end["answer"] == f"the key is {secret}"


def test_a_credential_spelled_like_a_record_word_leaves_the_transcript_readable(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    # "feedback" and "call_0" are values of the record's own vocabulary (an outcome, a call
    # id): masking them would make the file unreadable; the model's text is still masked
    path = tmp_path / "run.jsonl"
    redact = Redactor(["feedback", "sk-tool-key-1234"])
    model = ScriptedModel(
        [
            "no section here, just feedback",
            action("note", text="the key sk-tool-key-1234"),
        ]
    )
    agent = make_agent(model, redact=redact)
    agent.run_sync("add with feedback", transcript=path)
    records = lines(path)
    assert [record.get("outcome") for record in records[1:3]] == ["feedback", "action"]
    assert records[1]["output"] == "no section here, just ***"
    assert records[2]["calls"][0]["args"] == {"text": "the key ***"}
    assert records[2]["calls"][0]["status"] == "success"
    assert records[2]["clipboard"][0]["text"] == "the key ***"
    path.write_text("".join(json.dumps(record) + "\n" for record in records[:3]))  # cut
    answering = ScriptedModel(["<answer>3</answer>"])
    result = asyncio_run(make_agent(answering, redact=redact).resume(path))
    assert result.answer == "3"
    assert "the key ***" in answering.requests[0].messages[-1].text  # the clipboard, as stored
    assert [step.outcome for step in result.steps] == ["feedback", "action", "answer"]


def test_partial_last_line_is_ignored(tmp_path: Path, make_agent: MakeAgent) -> None:
    path = tmp_path / "run.jsonl"
    model = ScriptedModel([action("add", a=1, b=1), "<answer>2</answer>"])
    make_agent(model).run_sync("q", transcript=path)
    kept = path.read_text().splitlines()[:2]
    path.write_text("\n".join([*kept, '{"type": "step", "index": 2, "outp']))
    transcript = load_transcript(path)
    assert len(transcript.steps) == 1
    assert not transcript.finished


def test_corrupt_middle_line_is_an_error_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "run", "task": "t"}\nnot json\n{"type": "end"}\n')
    with pytest.raises(GentError, match=r"not valid JSON.*line 2"):
        load_transcript(path)


def test_resuming_a_finished_run_is_refused(make_agent: MakeAgent, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    make_agent(ScriptedModel(["<answer>x</answer>"])).run_sync("q", transcript=path)
    agent = make_agent(ScriptedModel([]))
    with pytest.raises(GentError, match="already finished"):
        asyncio_run(agent.resume(path))


KILLABLE_RUN = """
import asyncio, json, sys
from gent_json.chain import JSONToolChain
from gent_xml.format import XMLFormat
from gent_core._agent import Agent
from gent_core.model import Model, ModelChunk
from gent_core.tools import tool


@tool
def add(a: int, b: int) -> int:
    '''Add two integers.'''
    return a + b


class SlowModel(Model):
    def __init__(self):
        self.calls = 0

    async def stream(self, request):
        self.calls += 1
        if self.calls <= 2:
            call = json.dumps({"tool": "add", "args": {"a": self.calls, "b": 10}})
            yield ModelChunk(f"<thinking>step {self.calls}</thinking><action>{call}</action>")
            return
        await asyncio.sleep(3600)  # the third call hangs: the test kills the process here
        yield ModelChunk("")


agent = Agent(SlowModel(), XMLFormat(), JSONToolChain(), tools=[add], working_directory=sys.argv[2])
asyncio.run(agent.run("add twice", transcript=sys.argv[1]))
"""


def test_kill_and_resume(make_agent: MakeAgent, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    script = tmp_path / "killable.py"
    script.write_text(textwrap.dedent(KILLABLE_RUN))
    process = subprocess.Popen([sys.executable, str(script), str(path), str(tmp_path)])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if path.exists() and path.read_text().count('"type": "step"') == 2:
                break
            assert process.poll() is None, "the run ended before it could be killed"
            time.sleep(0.05)
        else:
            pytest.fail("the run did not write two steps in time")
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    interrupted = load_transcript(path)
    assert [step.outcome for step in interrupted.steps] == ["action", "action"]
    assert not interrupted.finished

    model = ScriptedModel(["<thinking>1+10 and 2+10 done</thinking><answer>11, 12</answer>"])
    agent = make_agent(model)
    result = asyncio_run(agent.resume(path))
    assert result.answer == "11, 12"
    assert [step.index for step in result.steps] == [1, 2, 3]
    assert result.stats.tool_calls == {"add": 2}
    history = model.requests[0].messages
    assert [message.role for message in history] == [
        "system", "user", "assistant", "user", "assistant", "user",
    ]  # fmt: skip
    assert history[1].text == "add twice"
    assert "<add>\n11\n</add>" in history[3].text
    assert "<add>\n12\n</add>" in history[5].text
    assert [record["type"] for record in lines(path)] == [
        "run", "step", "step", "resume", "step", "end",
    ]  # fmt: skip


def asyncio_run(coroutine: Any) -> Any:
    import asyncio

    return asyncio.run(coroutine)

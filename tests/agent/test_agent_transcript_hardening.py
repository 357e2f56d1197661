"""Transcripts: resuming after a torn last line, corrupt files reported by file and line, and a
transcript path that cannot be written refused before the run starts (issue 11, bugs 12-14)."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gent_core._agent import Agent
from gent_core._cli.main import main
from gent_core._transcript.lines import load_transcript
from gent_core.errors import GentError
from gent_core.testing import ScriptedModel
from tests.strict_json import strict_loads

MakeAgent = Callable[..., Agent]

ACTION = '<action>{"tool": "add", "args": {"a": 1, "b": 1}}</action>'


def interrupted_transcript(make_agent: MakeAgent, path: Path) -> list[str]:
    """A transcript of a run stopped after its first step (no end line)."""
    make_agent(ScriptedModel([ACTION, "<answer>2</answer>"])).run_sync("q", transcript=path)
    kept = path.read_text().splitlines()[:2]  # the header and step 1
    path.write_text("\n".join(kept) + "\n")
    return kept


def test_resume_after_a_torn_last_line_keeps_the_transcript_valid(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    kept = interrupted_transcript(make_agent, path)
    with path.open("a") as file:
        file.write('{"type": "step", "index": 2, "outp')  # killed while writing
    agent = make_agent(ScriptedModel(["<answer>2</answer>"]))
    resumed = asyncio.run(agent.resume(path))
    assert resumed.ok and resumed.answer == "2"
    text = path.read_text()
    assert text.endswith("\n")
    records = [strict_loads(line) for line in text.splitlines()]  # every line is whole JSON
    assert [record["type"] for record in records] == ["run", "step", "resume", "step", "end"]
    assert text.splitlines()[:2] == kept
    assert records[2]["discarded_partial_line"] == len('{"type": "step", "index": 2, "outp')
    again = load_transcript(path)
    assert again.finished and [step.index for step in again.steps] == [1, 2]


def step_line(**changes: Any) -> str:
    step: dict[str, Any] = {
        "type": "step",
        "index": 1,
        "output": "<answer>x</answer>",
        "outcome": "answer",
        "calls": [],
        "followup": "",
        "followup_media": [],
        "answer": "x",
        "notes": [],
        "model": {"input_tokens": 1, "output_tokens": 1, "seconds": 0.1, "finish_reason": "stop"},
        "tool_seconds": 0.0,
        "clipboard": [],
    }
    step.update(changes)
    return json.dumps({key: value for key, value in step.items() if value is not ...})


HEADER = json.dumps({"type": "run", "version": 1, "task": "q"})
BAD_MEDIA = {"media_type": "image/png", "data": "!!"}

CORRUPT: list[tuple[bytes, int, str]] = [
    (b"[1, 2]\n", 1, "not a JSON object"),
    (f"{HEADER}\n[1, 2]\n".encode(), 2, "not a JSON object"),
    (f'{HEADER}\n{{"index": 1}}\n'.encode(), 2, "has no 'type'"),
    (f'{HEADER}\n{{"type": "steps"}}\n'.encode(), 2, "unknown line type 'steps'"),
    (f"{HEADER}\n{step_line(index=...)}\n".encode(), 2, "'index'"),
    (f"{HEADER}\n{step_line(index='one')}\n".encode(), 2, "'index' must be an integer"),
    (f"{HEADER}\n{step_line(outcome='won')}\n".encode(), 2, "'outcome' must be one of"),
    (f"{HEADER}\n{step_line(calls={'a': 1})}\n".encode(), 2, "'calls' must be a list"),
    (f"{HEADER}\n{step_line(calls=[{'tool': 'x'}])}\n".encode(), 2, "missing 'calls[0].status'"),
    (f"{HEADER}\n{step_line(followup_media=[BAD_MEDIA])}\n".encode(), 2, "not base64"),
    (f"{HEADER}\n{step_line(model=[1])}\n".encode(), 2, "'model' must be an object"),
    (f"{HEADER}\n{step_line(clipboard=[3])}\n".encode(), 2, "'clipboard[0]' must be an object"),
    (f'{HEADER}\n{{"type": "end", "stop_reason": 3}}\n'.encode(), 2, "'stop_reason' must be"),
    (HEADER.encode() + b"\n\xff\xfe oops\n" + step_line().encode() + b"\n", 2, "not UTF-8"),
    (b'{"type": "run", "task": 7}\n', 1, "'task' must be a string"),
    (b"\n\n", 0, "transcript is empty"),
    (f'{{"type": "step"}}\n{HEADER}\n'.encode(), 1, "does not start with a 'run' line"),
    # gent's bounds: values nest at most 100 levels, integers have at most 4,300 digits
    (
        f"{HEADER}\n{step_line(notes='X')}\n".replace('"X"', "[" * 250 + "]" * 250).encode(),
        2,
        "in the line nests more than 200 levels deep",
    ),
    (
        f"{HEADER}\n{step_line(tool_seconds='X')}\n".replace('"X"', "7" * 5000).encode(),
        2,
        "the line: an integer has 5,000 digits; gent accepts integers of at most 4,300 digits",
    ),
]


@pytest.mark.parametrize(("content", "line", "problem"), CORRUPT)
def test_a_corrupt_transcript_is_a_gent_error_naming_file_and_line(
    tmp_path: Path, make_agent: MakeAgent, content: bytes, line: int, problem: str
) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(content)
    with pytest.raises(GentError) as caught:
        load_transcript(path)
    where = f"file {path}, line {line}" if line else f"file {path}"
    assert where in str(caught.value)
    assert problem in str(caught.value)
    model = ScriptedModel(["<answer>x</answer>"])
    with pytest.raises(GentError):  # resuming says the same, and never calls the model
        asyncio.run(make_agent(model).resume(path))
    assert model.requests == []


def test_valid_media_in_a_transcript_is_read_back(tmp_path: Path) -> None:
    media = [{"media_type": "image/png", "data": base64.b64encode(b"PNG").decode()}]
    path = tmp_path / "run.jsonl"
    path.write_text(f"{HEADER}\n{step_line(followup_media=media, outcome='action')}\n")
    [step] = load_transcript(path).steps
    assert step.followup_media == media


def test_a_transcript_over_the_size_limit_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text(f"{HEADER}\n{step_line()}\n")
    assert load_transcript(path).steps  # under the default limit
    monkeypatch.setenv("GENT_MAX_TRANSCRIPT_SIZE", "64")
    with pytest.raises(GentError) as caught:
        load_transcript(path)
    message = str(caught.value)
    size = path.stat().st_size
    assert f"cannot read the transcript {path}: the transcript is {size:,} bytes" in message
    assert "a transcript may be at most 64 bytes" in message
    assert "set GENT_MAX_TRANSCRIPT_SIZE to a larger size" in message


def test_resume_from_a_directory_or_a_missing_file_is_a_gent_error(tmp_path: Path) -> None:
    for path in (tmp_path, tmp_path / "missing.jsonl"):
        with pytest.raises(GentError, match="cannot read the transcript"):
            load_transcript(path)


@pytest.mark.parametrize("where", ["dir", "under_a_file"])
def test_transcript_path_that_cannot_be_written_fails_before_the_run(
    make_agent: MakeAgent, tmp_path: Path, where: str
) -> None:
    (tmp_path / "plain.txt").write_text("x")
    path = tmp_path if where == "dir" else tmp_path / "plain.txt" / "run.jsonl"
    model = ScriptedModel(["<answer>x</answer>"])
    with pytest.raises(GentError, match="cannot write the transcript"):
        make_agent(model).run_sync("q", transcript=path)
    assert model.requests == []  # the model was never called


CONFIG = """\
model:
  name: scripted
  outputs: ['<answer>x</answer>']
"""


def test_cli_refuses_a_transcript_directory_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "agent.yaml"
    config.write_text(CONFIG)
    code = main(["run", str(config), "q", "--transcript", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 2
    assert "cannot write the transcript" in captured.err and "is a directory" in captured.err
    assert "Traceback" not in captured.err
    assert "Task:" not in captured.out  # stopped before the run started

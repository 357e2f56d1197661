"""One run per transcript: an existing transcript is refused unless resumed, a transcript being
written is locked against a second writer, and files holding several runs are refused when
resumed (issue 17, item 5)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from gent_core._agent import Agent
from gent_core._cli.main import main
from gent_core._transcript.lines import load_transcript
from gent_core.errors import GentError
from gent_core.model import Model, ModelChunk, ModelRequest
from gent_core.testing import ScriptedModel

MakeAgent = Callable[..., Agent]

CONFIG = """\
model:
  name: scripted
  outputs: ['<answer>{answer}</answer>']
format: xml
"""


def kinds(path: Path) -> list[str]:
    return [json.loads(line)["type"] for line in path.read_text().splitlines()]


class GatedModel(Model):
    """Answers once ``gate`` is set; ``waiting`` is set when the run is inside the model."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        self.waiting.set()
        await self.gate.wait()
        yield ModelChunk("<answer>first</answer>")


def test_cli_refuses_a_transcript_that_holds_a_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = tmp_path / "run.jsonl"
    first = tmp_path / "first.yaml"
    first.write_text(CONFIG.format(answer="one"))
    second = tmp_path / "second.yaml"
    second.write_text(CONFIG.format(answer="two"))
    assert main(["run", str(first), "first task", "-q", "--transcript", str(transcript)]) == 0
    before = transcript.read_text()
    capsys.readouterr()

    code = main(["run", str(second), "second task", "-q", "--transcript", str(transcript)])

    captured = capsys.readouterr()
    assert code == 2
    assert f"the transcript {transcript} already holds a run" in captured.err
    assert f"delete {transcript}" in captured.err
    assert f"gent run --resume {transcript}" in captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""  # the second run never started
    assert transcript.read_text() == before  # nothing appended: the task appears nowhere
    assert "second task" not in transcript.read_text()
    assert kinds(transcript) == ["run", "step", "end"]


def test_agent_refuses_any_non_empty_file_but_takes_an_empty_one(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.jsonl"
    notes.write_text("my own notes, not a transcript\n")
    model = ScriptedModel(["<answer>x</answer>"])
    with pytest.raises(GentError, match="already holds a run"):
        make_agent(model).run_sync("q", transcript=notes)
    assert notes.read_text() == "my own notes, not a transcript\n"
    assert model.requests == []  # refused before the run started

    empty = tmp_path / "empty.jsonl"
    empty.touch()
    result = make_agent(ScriptedModel(["<answer>x</answer>"])).run_sync("q", transcript=empty)
    assert result.ok
    assert kinds(empty) == ["run", "step", "end"]


def test_a_second_writer_is_refused_while_a_run_writes(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"

    async def scenario() -> tuple[str, BaseException | None]:
        gated = GatedModel()
        first = asyncio.create_task(make_agent(gated).run("first task", transcript=path))
        await gated.waiting.wait()  # the first run holds the transcript now
        second_model = ScriptedModel(["<answer>second</answer>"])
        refused: BaseException | None = None
        try:
            await make_agent(second_model).run("second task", transcript=path)
        except GentError as error:
            refused = error
        assert second_model.requests == []
        gated.gate.set()
        result = await first
        return str(result.answer), refused

    answer, refused = asyncio.run(scenario())
    assert answer == "first"
    assert refused is not None
    assert f"the transcript {path} is being written by another run" in str(refused)
    steps = load_transcript(path).steps
    assert [step.answer for step in steps] == ["first"]


LOCK_HOLDER = """
import sys
from pathlib import Path
from gent_core._transcript.writer import open_locked
file = open_locked(Path(sys.argv[1]), resume=False)
print("locked", flush=True)
sys.stdin.read()  # hold the lock until the test closes stdin
"""


def test_resuming_a_transcript_another_process_writes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    config = tmp_path / "agent.yaml"
    config.write_text(CONFIG.format(answer="x"))
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        completed = subprocess.run(
            [sys.executable, "-m", "gent_core", "run", str(config), "--resume", str(path)],
            capture_output=True,
            text=True,
            check=False,
            cwd=tmp_path,
        )
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait()
    assert completed.returncode == 2
    assert f"the transcript {path} is being written by another run" in completed.stderr
    assert "Traceback" not in completed.stderr


def header(task: str = "t") -> str:
    return json.dumps({"type": "run", "version": 1, "task": task})


def step(index: int, outcome: str = "action") -> str:
    return json.dumps({"type": "step", "index": index, "output": "o", "outcome": outcome})


END = json.dumps({"type": "end", "stop_reason": "answer"})


@pytest.mark.parametrize(
    ("lines", "line", "problem"),
    [
        # what the old appending wrote: a finished run, then a second one as a 'resume'
        ([header(), step(1), END, json.dumps({"type": "resume", "after_step": 0})], 4,
         "a 'resume' line after the run's 'end' line"),
        # two runs interleaving their steps
        ([header(), step(1), step(1), step(2)], 3, "step 1 where step 2 was expected"),
        # two runs concatenated
        ([header("a"), step(1), header("b")], 3, "a second 'run' line"),
    ],
)  # fmt: skip
def test_resume_refuses_a_file_holding_several_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], line: int, problem: str
) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(lines) + "\n")
    config = tmp_path / "agent.yaml"
    config.write_text(CONFIG.format(answer="x"))
    code = main(["run", str(config), "--resume", str(path)])
    captured = capsys.readouterr()
    assert code == 2
    assert problem in captured.err
    assert f"file {path}, line {line}" in captured.err
    assert "Traceback" not in captured.err

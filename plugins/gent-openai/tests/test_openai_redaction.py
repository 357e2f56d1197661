"""Redaction never rewrites the user's text (issue 17): the reported runs of the tutorial's
OpenAI example, through the real ``gent`` command against a scripted OpenAI-like server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from openai_fake_server import FakeServer, Reply, chat_event

from gent_core.testing import run_cli as main

EXAMPLE = Path(__file__).parents[3] / "examples" / "calculator-openai.yaml"


def reply(text: str) -> Reply:
    return Reply(events=[chat_event(text), chat_event(finish="stop"), "[DONE]"])


@pytest.fixture
def example(tmp_path: Path, fake_server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The tutorial's OpenAI example, pointed at the fake server."""
    monkeypatch.setenv("OPENAI_BASE_URL", fake_server.base_url)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_MODEL", raising=False)
    path = tmp_path / "agent.yaml"
    shutil.copy(EXAMPLE, path)
    return path


def test_a_model_named_local_is_not_masked_in_the_task_or_the_answer(
    example: Path,
    fake_server: FakeServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # reported: OPENAI_MODEL=local printed "Task: ... Answer ***ly."
    monkeypatch.setenv("OPENAI_MODEL", "local")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-real-key-0123")
    fake_server.replies.append(reply("<thinking>It runs locally.</thinking><answer>2</answer>"))
    task = "What is 1 + 1? Answer locally."
    assert main(["run", str(example), task]) == 0
    out = capsys.readouterr().out
    assert f"Task: {task}\n" in out
    assert "[thinking] It runs locally.\n" in out
    assert "***" not in out
    assert fake_server.posts[0].body["model"] == "local"


def test_api_key_none_is_not_masked_in_json_output(
    example: Path, fake_server: FakeServer, capsys: pytest.CaptureFixture[str]
) -> None:
    # reported: `api_key: none` printed "task": "Is *** of these numbers prime" in --json
    text = example.read_text().replace("api_key: ${OPENAI_API_KEY:-}", "api_key: none")
    example.write_text(text)
    answer = "None of these numbers is prime; none is even."
    fake_server.replies.append(reply(f"<thinking>none of them</thinking><answer>{answer}</answer>"))
    task = "Is none of these numbers prime: 4, 6, 8?"
    assert main(["run", str(example), task, "--json"]) == 0
    captured = capsys.readouterr()
    printed = json.loads(captured.out)
    assert printed["task"] == task
    assert printed["answer"] == answer
    assert printed["steps"][0]["output"].startswith("<thinking>none of them</thinking>")
    assert "***" not in captured.out
    assert captured.err == ""  # 'none' is a placeholder: no warning either
    assert fake_server.posts[0].headers["Authorization"] == "Bearer none"


def test_a_one_letter_key_from_the_environment_keeps_transcripts_readable_and_resumable(
    example: Path,
    fake_server: FakeServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    # variant: OPENAI_API_KEY=x reaches the config through ${OPENAI_API_KEY}; the transcript
    # keys ("index", "text"...) and the resumed run must not be touched
    monkeypatch.setenv("OPENAI_API_KEY", "x")
    fake_server.replies.append(
        reply('<action>{"tool": "calculator", "args": {"expression": "6 * 7"}}</action>')
    )
    transcript = tmp_path / "run.jsonl"
    task = "Compute 6 * 7 exactly"
    flags = ["-o", "model.max_retries=0"]
    # the second model call finds no scripted reply: the run stops after one step
    assert main(["run", str(example), task, "--transcript", str(transcript), *flags]) == 1
    lines = transcript.read_text().splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["run", "step", "end"]
    assert json.loads(lines[1])["index"] == 1
    assert "***" not in "\n".join(lines[1:])
    # drop the end line, as a run killed after its first step leaves the file, and resume
    transcript.write_text("\n".join(lines[:-1]) + "\n")
    capsys.readouterr()
    fake_server.replies.append(reply("<answer>The max is 42, exactly.</answer>"))
    assert main(["run", str(example), "--resume", str(transcript), "-q", *flags]) == 0
    assert capsys.readouterr().out == "The max is 42, exactly.\n"
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert [record["type"] for record in records] == ["run", "step", "resume", "step", "end"]
    assert records[0]["config"]["model"]["api_key"] == "***"
    assert records[0]["task"] == task
    assert "observation" in fake_server.posts[-1].body["messages"][-1]["content"]


def completion_reply(text: str) -> Reply:
    events = [{"choices": [{"index": 0, "text": text, "finish_reason": None}]}]
    return Reply(events=[*events, {"choices": [{"index": 0, "text": "", "finish_reason": "stop"}]}])


def test_the_example_runs_on_a_local_base_model_server_as_the_tutorial_says(
    example: Path, fake_server: FakeServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """No key in the environment (a local server needs none), the completions API and the
    grammar for a base model, each step capped: the tutorial's command, on a fake server."""
    fake_server.replies.append(
        completion_reply(
            '<thinking>Use it.</thinking><action>{"tool": "calculator", '
            '"args": {"expression": "17 * 23"}}</action>'
        )
    )
    fake_server.replies.append(completion_reply("<thinking>Done.</thinking><answer>391</answer>"))
    flags = ["-o", "model.model=local", "-o", "model.api=completions", "-o", "model.grammar=true"]
    assert main(["run", str(example), *flags, "What is 17 * 23?", "-q"]) == 0
    assert capsys.readouterr().out == "391\n"
    first = fake_server.posts[0]
    assert first.path.endswith("/completions") and not first.path.endswith("/chat/completions")
    assert "Authorization" not in first.headers
    assert first.body["max_tokens"] == 512
    assert "grammar" in first.body

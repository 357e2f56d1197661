"""Secrets never reach any output of ``gent``: live view, ``--json``, ``gent describe``, the
transcript and error messages, also inside ``base_url`` and when a model or a tool echoes them
(issue 11, bug 9) — but the user's own text, the task and the answer, is never altered
(issue 17)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gent_core._cli.main import main

TOKEN = "tok-0123456789abcdef"

CONFIG = """\
model:
  name: scripted
  chunk_size: {chunk}
  outputs:
    - >-
      <thinking>The key is ${{GENT_TEST_TOKEN}}; the proxy is
      http://bob:hunter22@example.com/x</thinking>
      <action>{{"tool": "calculator", "args": {{"expression": "${{GENT_TEST_TOKEN}}"}}}}</action>
    - '<answer>Done with ${{GENT_TEST_TOKEN}}</answer>'
tools: [calculator]
prompt:
  append: "Authenticate with ${{GENT_TEST_TOKEN}}."
"""


@pytest.fixture(autouse=True)
def token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENT_TEST_TOKEN", TOKEN)


def write_config(tmp_path: Path, chunk: int = 5) -> Path:
    path = tmp_path / "agent.yaml"
    path.write_text(CONFIG.format(chunk=chunk))
    return path


def assert_masked(text: str) -> None:
    assert TOKEN not in text
    for piece in (TOKEN[:8], TOKEN[-8:]):  # not even half of it
        assert piece not in text
    assert "hunter22" not in text


def without_user_text(record: Any) -> Any:
    """A run record (or transcript line) without its task and answer fields."""
    if isinstance(record, dict):
        return {
            key: without_user_text(value)
            for key, value in record.items()
            if key not in ("task", "answer")
        }
    if isinstance(record, list):
        return [without_user_text(item) for item in record]
    return record


@pytest.mark.parametrize("chunk", [1, 3, 5, 0])
def test_live_view_masks_secrets_echoed_by_the_model_and_a_tool(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chunk: int
) -> None:
    code = main(["run", str(write_config(tmp_path, chunk)), f"use {TOKEN}"])
    captured = capsys.readouterr()
    assert code == 0
    out = captured.out
    # the task and the answer are the user's text: shown as written, also while it streams
    assert f"Task: use {TOKEN}\n" in out
    assert f"[answer] Done with {TOKEN}\n" in out
    assert f"Answer: Done with {TOKEN}\n" in out
    assert_masked(out.replace(f"use {TOKEN}", "").replace(f"Done with {TOKEN}", "") + captured.err)
    assert "The key is ***" in out
    assert "http://bob:***@example.com/x" in out
    assert "<- calculator failed:" in out


def test_json_output_and_transcript_mask_secrets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = tmp_path / "run.jsonl"
    code = main(
        ["run", str(write_config(tmp_path)), "q", "--json", "--transcript", str(transcript)]
    )
    captured = capsys.readouterr()
    assert code == 0
    printed = json.loads(captured.out)
    assert printed["answer"] == printed["steps"][-1]["answer"] == f"Done with {TOKEN}"
    assert printed["steps"][-1]["output"] == "<answer>Done with ***</answer>"  # model text
    assert_masked(json.dumps(without_user_text(printed)) + captured.err)
    lines = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert lines[-1]["type"] == "end" and lines[-1]["answer"] == f"Done with {TOKEN}"
    assert_masked(json.dumps(without_user_text(lines)))


def test_describe_masks_secrets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["describe", str(write_config(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert_masked(out)
    assert "Authenticate with ***." in out


OPENAI = """\
model:
  name: openai
  base_url: "http://127.0.0.1:9/v1?api_key=${GENT_TEST_TOKEN}"
  model: m
  max_retries: 0
"""


@pytest.mark.parametrize("json_output", [False, True])
def test_secrets_inside_base_url_are_masked_in_errors_and_model_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], json_output: bool
) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text(OPENAI)
    code = main(["run", str(path), "q", *(["--json"] if json_output else [])])
    captured = capsys.readouterr()
    assert code == 1
    assert_masked(captured.out + captured.err)
    assert "api_key=***" in captured.out

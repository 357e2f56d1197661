"""``gent run --resume`` without a config resumes with the configuration the transcript
recorded, taking masked secrets from the config file it names (issue 17, item 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gent_core._cli.main import main

RECORDED = """\
model:
  name: scripted
  outputs:
    - >-
      <thinking>Multiply.</thinking><action>{"tool": "calculator",
      "args": {"expression": "17*23"}}</action>
    - '<thinking>Done.</thinking><answer>recorded config: 391</answer>'
format: xml
toolchain: json
tools: [calculator]
"""

OTHER = """\
model:
  name: scripted
  outputs: ['<answer>from ./gent.yaml</answer>']
format: xml
"""


def interrupted(transcript: Path, keep: int) -> None:
    """Keep the header and ``keep`` steps: a run killed after them."""
    lines = transcript.read_text().splitlines()
    transcript.write_text("\n".join(lines[: 1 + keep]) + "\n")


def test_resume_without_config_uses_the_recorded_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "agent.yaml").write_text(RECORDED)
    transcript = tmp_path / "run.jsonl"
    assert main(["run", "agent.yaml", "What is 17 * 23?", "-q", "--transcript", "run.jsonl"]) == 0
    interrupted(transcript, keep=1)
    (tmp_path / "gent.yaml").write_text(OTHER)  # neither it nor the built-in agent is used
    capsys.readouterr()

    code = main(["run", "--resume", "run.jsonl", "--json"])

    captured = capsys.readouterr()
    assert code == 0, captured.err
    result = json.loads(captured.out)
    assert result["answer"] == "recorded config: 391"
    assert [step["index"] for step in result["steps"]] == [1, 2, 3]


WORKDIR_CONFIG = """\
model:
  name: scripted
  outputs:
    - '<action>{"tool": "read_file", "args": {"path": "notes.txt"}}</action>'
    - '<answer>read it</answer>'
format: xml
toolchain: json
tools: [read_file]
working_directory: ${NOTES_SECRET_DIR}
"""


def test_masked_secrets_are_read_again_from_the_recorded_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The working directory comes from a variable whose name marks a credential (SECRET), so
    # the transcript masks it; resuming reads it again from the recorded config file.
    notes = tmp_path / "notes-folder"
    notes.mkdir()
    (notes / "notes.txt").write_text("the content of the notes\n")
    monkeypatch.setenv("NOTES_SECRET_DIR", str(notes))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    config = tmp_path / "agent.yaml"
    config.write_text(WORKDIR_CONFIG)
    transcript = tmp_path / "run.jsonl"
    assert main(["run", str(config), "Read the notes", "-q", "--transcript", str(transcript)]) == 0
    header = json.loads(transcript.read_text().splitlines()[0])
    assert header["config"]["working_directory"] == "***"
    assert header["config_file"] == str(config.resolve())
    interrupted(transcript, keep=0)
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()

    code = main(["run", "--resume", str(transcript), "--json"])

    captured = capsys.readouterr()
    assert code == 0, captured.err
    result = json.loads(captured.out)
    assert result["steps"][0]["calls"][0]["output"] == "the content of the notes"
    assert result["answer"] == "read it"


def test_masked_secrets_without_the_config_file_are_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes-folder"
    notes.mkdir()
    monkeypatch.setenv("NOTES_SECRET_DIR", str(notes))
    config = tmp_path / "agent.yaml"
    config.write_text(WORKDIR_CONFIG)
    transcript = tmp_path / "run.jsonl"
    main(["run", str(config), "Read the notes", "-q", "--transcript", str(transcript)])
    interrupted(transcript, keep=0)
    config.unlink()
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()

    code = main(["run", "--resume", str(transcript)])

    captured = capsys.readouterr()
    assert code == 2
    assert "secret values were masked ('working_directory')" in captured.err
    assert f"the config file the run came from, {config.resolve()}" in captured.err
    assert f"gent run CONFIG --resume {transcript}" in captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""

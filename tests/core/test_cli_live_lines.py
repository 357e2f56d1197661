"""The live view starts every line it writes about an event on a line of its own, even after
model text that did not end its line (issue 17, item 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gent_core._cli.main import main

CHATTER = """\
model:
  name: scripted
  outputs:
    - 'I am a fake server.'
    - '<answer>ok</answer>'
format: xml
"""

AFTER_A_SECTION = """\
model:
  name: scripted
  outputs:
    - '<thinking>Hmm.</thinking>no action here'
    - '<answer>ok</answer>'
format: xml
toolchain: json
tools: [calculator]
"""


def live(tmp_path: Path, config: str, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / "agent.yaml"
    path.write_text(config)
    assert main(["run", str(path), "task", "--no-color"]) == 0
    return capsys.readouterr().out


def test_feedback_starts_on_its_own_line_after_chatter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = live(tmp_path, CHATTER, capsys)
    assert "I am a fake server.\n! No recognised section found in your output." in out
    assert "server.!" not in out


def test_feedback_starts_on_its_own_line_after_text_following_a_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = live(tmp_path, AFTER_A_SECTION, capsys)
    lines = out.splitlines()
    assert "[thinking] Hmm." in lines
    assert "no action here" in lines
    feedback = [line for line in lines if line.startswith("! ")]
    assert feedback and feedback[0].startswith("! Your output had no usable action or answer")
    assert "Answer: ok" in lines

"""``gent eval`` with a catastrophic ``regex`` check: the check fails at its deadline, saying
why, and the evaluation finishes (issue 17, item 3). The answer would keep Python's ``re``
backtracking over (a|aa)+$ for hours on any machine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gent_core.testing import run_cli as main

HOURS = "a" * 100 + "b"

SUITE = """\
name: patterns
tasks:
  - id: slow
    text: Write the code.
    checks: [{regex: "(a|aa)+$"}]
  - id: fine
    text: Write the code again.
    checks: [{regex: "^a+b$"}]
"""


def test_a_catastrophic_regex_check_fails_at_its_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GENT_PATTERN_TIMEOUT", "0.2")  # documented in docs/limits.md
    (tmp_path / "suite.yaml").write_text(SUITE)
    answer = json.dumps(f"<answer>{HOURS}</answer>")
    (tmp_path / "agent.yaml").write_text(
        f"model:\n  name: scripted\n  outputs: [{answer}, {answer}]\nformat: xml\n"
    )
    code = main(["eval", "suite.yaml", "agent.yaml", "--no-progress", "--report", "r.json"])
    assert code == 0
    runs = json.loads((tmp_path / "r.json").read_text())["runs"]
    slow, fine = (run["checks"][0] for run in runs)
    assert not slow["passed"]
    assert "the pattern '(a|aa)+$' took longer than 0.2 s on this text" in slow["detail"]
    assert fine == {"check": "answer matches /^a+b$/", "passed": True, "detail": ""}

"""``gent eval`` refuses options and suites that could only fail later, up front, with exit 2
and a message saying what is accepted (issue 24): a ``--repeat`` that cannot fit in memory,
a ``--timeout`` that fails every run, a task id too long to name a transcript, an empty
task list, a suite source whose name is too long for a file name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gent_core.testing import run_cli as main

SUITE = "tasks:\n  - id: add\n    text: What is 2 + 2?\n    checks: [{number: 4}]\n"
AGENT = "model: {name: scripted, outputs: ['<answer>4</answer>']}\nformat: xml\n"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "suite.yaml").write_text(SUITE)
    (tmp_path / "agent.yaml").write_text(AGENT)
    return tmp_path


def _usage_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as caught:
        main(["eval", "suite.yaml", "agent.yaml", "--no-progress", *args])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    ("option", "value", "accepted"),
    [
        ("--repeat", "99999999999999999999", "from 1 to 10,000"),  # the instance
        ("--repeat", "9" * 5000, "from 1 to 10,000"),  # past Python's own int digits
        ("--repeat", "10001", "from 1 to 10,000"),
        ("--concurrency", "1e9", "from 1 to 1,000"),
        ("--every", "-3", "from 1 to 1,000,000,000"),
        ("--max-tokens", "²", "from 1 to 1,000,000,000"),
    ],
)
def test_counts_out_of_range_are_usage_errors(
    files: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, accepted: str
) -> None:
    err = _usage_error(capsys, option, value)
    assert f"argument {option}: expected a whole number {accepted}, got " in err
    assert "9" * 40 not in err  # a long value is shown shortened


@pytest.mark.parametrize("value", ["-1", "0", "nan", "inf", "1e300", "-inf"])
def test_a_timeout_that_fails_every_run_is_refused(
    files: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    """The instance is ``--timeout -1`` (accepted, and every run failed); the rest are
    variants: zero, not a number, infinite, past a week.
    """
    err = _usage_error(capsys, f"--timeout={value}")
    assert "argument --timeout: expected a number of seconds more than 0 and at most" in err


def test_a_good_repeat_and_timeout_still_run(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (files / "agent.yaml").write_text(
        "model: {name: scripted, outputs: ['<answer>4</answer>', '<answer>4</answer>']}\n"
        "format: xml\n"
    )
    args = ["--repeat", "0002", "--timeout", "30", "--no-progress"]
    assert main(["eval", "suite.yaml", "agent.yaml", *args]) == 0
    assert "2 runs, 0 failed" in capsys.readouterr().err


def test_a_task_id_too_long_for_a_file_name_is_refused(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (files / "suite.yaml").write_text(SUITE.replace("id: add", "id: " + "a" * 300))
    assert main(["eval", "suite.yaml", "agent.yaml", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "key 'tasks.0.id': a task id may be at most 100 characters" in err
    assert "got one of 300" in err
    assert "Traceback" not in err


def test_a_task_id_of_100_characters_runs_and_writes_its_transcript(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A variant at the bound: the longest id names a transcript file that can be written."""
    (files / "suite.yaml").write_text(SUITE.replace("id: add", "id: " + "a" * 100))
    assert main(["eval", "suite.yaml", "agent.yaml", "--no-progress", "--transcripts", "r"]) == 0
    assert [path.name for path in (files / "r" / "agent").iterdir()] == ["a" * 100 + "-r1.jsonl"]


@pytest.mark.parametrize("tasks", ["tasks: []", "tasks: []\nfiles: {}"])
def test_an_empty_task_list_says_it_must_not_be_empty(
    files: Path, capsys: pytest.CaptureFixture[str], tasks: str
) -> None:
    (files / "suite.yaml").write_text(tasks + "\n")
    assert main(["eval", "suite.yaml", "agent.yaml", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "key 'tasks': the list must not be empty" in err
    assert "expected a list, got a list" not in err


@pytest.mark.parametrize(
    "suite",
    [
        "nosuchsource:" + ",".join(["simple_python"] * 30),  # the review's 30 categories
        "nosuchsource:" + "/".join(["x" * 200] * 30),  # a variant: a path past PATH_MAX
    ],
)
def test_a_suite_source_too_long_for_a_file_name_is_not_a_traceback(
    files: Path, capsys: pytest.CaptureFixture[str], suite: str
) -> None:
    """``PREFIX:SELECTOR`` is first looked for as a file; a name too long to look up is not
    one (Path.exists() raised ENAMETOOLONG on Python 3.10-3.13).
    """
    assert main(["eval", suite, "agent.yaml", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "unknown suite source 'nosuchsource'" in err
    assert "Traceback" not in err

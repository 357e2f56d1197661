"""A suite's file names are checked when the suite is loaded: each bad name is a suite error
naming the file, line and key, never a crash at load (``IndexError``) or at run time."""

from __future__ import annotations

from pathlib import Path

import pytest
from gent_eval.loading import SuiteError, load_suite

from gent_core.testing import run_cli as main

TASK = "tasks:\n  - text: hi\n    checks: [{contains: x}]\n"


def problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    return [problem.render().replace(str(path), "s.yaml") for problem in caught.value.problems]


def test_gent_eval_refuses_a_file_named_dot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text('files: {".": "z"}\n' + TASK)
    assert main(["eval", "s.yaml", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert (
        "gent eval: error: s.yaml, line 1, key 'files..': expected the relative path of a file "
        "inside the task's working directory, got '.': it names the directory itself"
    ) in err
    assert "Traceback" not in err and "IndexError" not in err


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ('"a\\0b"', "got 'a\\x00b': it contains a NUL byte"),
        ('"./"', "got './': it names the directory itself, not a file in it"),
        ('""', "got '': it is empty"),
        ('"/etc/passwd"', "got '/etc/passwd': it is absolute (or starts with a drive)"),
        ('"C:\\\\x"', "got 'C:\\\\x': it is absolute (or starts with a drive)"),
        ('"a/../../b"', "got 'a/../../b': it contains '..', which leads out of the directory"),
    ],
)
def test_bad_file_names_are_refused_at_load(tmp_path: Path, name: str, problem: str) -> None:
    (found,) = problems(tmp_path, TASK + f"    files: {{{name}: text}}\n")
    assert found.startswith("s.yaml, line 4, key 'tasks.0.files.")
    assert found.endswith(problem)


def test_names_that_clash_are_refused_at_load(tmp_path: Path) -> None:
    text = (
        "files: {a: x, ./a: y, notes: z}\ntasks:\n  - text: hi\n    files: {notes/today.txt: w}\n"
    )
    assert problems(tmp_path, text) == [
        "s.yaml, line 1, key 'files../a': './a' names the same file as 'a'",
        "s.yaml, line 4, key 'tasks.0.files.notes/today.txt': 'notes/today.txt' needs 'notes' "
        "to be a folder, but 'notes' is a file of the task too",
    ]


def test_a_file_check_with_a_nul_byte_is_refused_at_load(tmp_path: Path) -> None:
    (found,) = problems(tmp_path, 'tasks:\n  - text: hi\n    checks: [{file: "x\\0y"}]\n')
    assert found == (
        "s.yaml, line 3, key 'tasks.0.checks.0.file': expected the relative path of a file "
        "inside the task's working directory, got 'x\\x00y': it contains a NUL byte"
    )


def test_good_file_names_load(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("files: {a/b.txt: x, ./c: y}\n" + TASK + "    files: {a/d: z}\n")
    (task,) = load_suite(path).tasks
    assert task.files == {"a/b.txt": "x", "./c": "y", "a/d": "z"}

"""``gent run``: the task from standard input, ``-s/--system`` and ``--cwd`` (issue 19, item 2).

Each test runs the real command in this process (:func:`tests.cli.inprocess.gent_in_process`:
standard input is a real file or ``/dev/null``, as a shell gives it) with a scripted model, and
reads the run back from its ``--json`` result or its ``--transcript``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gent_core._docs_url import docs_url
from tests.cli.inprocess import gent_in_process


def write_config(work: Path, *outputs: str, **keys: Any) -> None:
    config = {
        "model": {"name": "scripted", "outputs": list(outputs) or ["<answer>done</answer>"]},
        "format": "xml",
        "toolchain": "json",
        "tools": [],
        **keys,
    }
    (work / "agent.yaml").write_text(json.dumps(config))


def gent(
    work: Path, *arguments: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return gent_in_process(work, [*arguments, "--no-color"], stdin=data, env=env)


def result_of(done: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr.decode()
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# --------------------------------------------------------------------------- standard input


def test_a_piped_task_is_the_task(tmp_path: Path) -> None:
    write_config(tmp_path)
    done = gent(tmp_path, "run", "agent.yaml", "--json", stdin="What is 17 * 23?\n")
    assert result_of(done)["task"] == "What is 17 * 23?"


def test_a_dash_reads_the_task_from_standard_input_as_written(tmp_path: Path) -> None:
    write_config(tmp_path)
    task = "  Résumé this:\n\n  line one\tline two  \n\n"
    done = gent(tmp_path, "run", "agent.yaml", "-", "--json", stdin=task)
    # Only the line ends closing the input are dropped (as the shell's $(...) does).
    assert result_of(done)["task"] == "  Résumé this:\n\n  line one\tline two  "


def test_a_task_argument_wins_over_standard_input(tmp_path: Path) -> None:
    write_config(tmp_path)
    done = gent(tmp_path, "run", "agent.yaml", "the argument", "--json", stdin="piped")
    assert result_of(done)["task"] == "the argument"


def test_no_task_and_nothing_piped_is_a_usage_error(tmp_path: Path) -> None:
    write_config(tmp_path)
    done = gent(tmp_path, "run", "agent.yaml")  # stdin is /dev/null
    assert done.returncode == 2
    assert "the TASK is missing" in done.stderr.decode()


def test_an_empty_standard_input_says_what_to_do(tmp_path: Path) -> None:
    write_config(tmp_path)
    done = gent(tmp_path, "run", "agent.yaml", stdin="\n \n")
    err = done.stderr.decode()
    assert done.returncode == 2
    assert "standard input holds no task" in err
    assert "Traceback" not in err


def test_standard_input_is_bounded(tmp_path: Path) -> None:
    write_config(tmp_path)
    done = gent(
        tmp_path, "run", "agent.yaml", "-", stdin="x" * 5000, env={"GENT_MAX_TASK_SIZE": "1K"}
    )
    err = done.stderr.decode()
    assert done.returncode == 2
    assert "standard input holds more than 1,024 bytes" in err
    assert "GENT_MAX_TASK_SIZE" in err
    assert f"see {docs_url('limits.md')}" in err
    assert "Traceback" not in err


def test_a_task_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    write_config(tmp_path)
    done = gent(tmp_path, "run", "agent.yaml", "-", stdin=b"caf\xe9\n")
    err = done.stderr.decode()
    assert done.returncode == 2
    assert "not UTF-8 text (invalid byte 0xe9 at offset 3)" in err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- -s/--system


def system_prompt(work: Path, *flags: str) -> str:
    done = gent(work, "run", "agent.yaml", "q", "--transcript", "run.jsonl", *flags)
    assert done.returncode == 0, done.stderr.decode()
    header = json.loads((work / "run.jsonl").read_text().splitlines()[0])
    prompt: str = header["system_prompt"]
    return prompt


def test_system_adds_to_the_system_prompt_after_the_configs_own_addition(tmp_path: Path) -> None:
    write_config(tmp_path, prompt={"append": "From the config."})
    prompt = system_prompt(tmp_path, "-s", "Answer in French.", "--system", "Be brief.")
    assert prompt.endswith("From the config.\n\nAnswer in French.\n\nBe brief.")


def test_system_without_an_addition_in_the_config(tmp_path: Path) -> None:
    write_config(tmp_path)
    plain = system_prompt(tmp_path)
    (tmp_path / "run.jsonl").unlink()
    added = system_prompt(tmp_path, "-s", "Réponds en français.")
    assert added.startswith(plain.rstrip())
    assert added.endswith("Réponds en français.")


# --------------------------------------------------------------------------- --cwd


READ = '<action>{"tool": "read_file", "args": {"path": "note.txt"}}</action>'


def test_tools_work_in_cwd_while_paths_resolve_where_the_user_is(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "note.txt").write_text("the note in notes/\n")
    (tmp_path / "note.txt").write_text("the note where the user is\n")
    write_config(tmp_path, READ, "<answer>read</answer>", tools=["read_file"])
    done = gent(
        tmp_path, "run", "agent.yaml", "read it", "--cwd", "notes", "--transcript", "run.jsonl"
    )
    assert done.returncode == 0, done.stderr.decode()
    # The config and the transcript are where the user is; the tool read notes/note.txt.
    steps = [json.loads(line) for line in (tmp_path / "run.jsonl").read_text().splitlines()]
    calls = [call for step in steps for call in step.get("calls", [])]
    assert "the note in notes/" in json.dumps(calls)
    assert "the note where the user is" not in json.dumps(calls)


@pytest.mark.parametrize("directory", ["missing", "agent.yaml"])
def test_cwd_must_be_an_existing_directory(tmp_path: Path, directory: str) -> None:
    write_config(tmp_path)
    done = gent(tmp_path, "run", "agent.yaml", "q", "--cwd", directory)
    err = done.stderr.decode()
    assert done.returncode == 2
    state = "does not exist" if directory == "missing" else "is not a directory"
    assert f"--cwd {directory}: '{directory}' {state}; expected an existing directory" in err
    assert "Traceback" not in err

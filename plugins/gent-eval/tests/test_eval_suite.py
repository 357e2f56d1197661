"""Reading suite files: defaults, selection, and errors naming file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest
from gent_eval.checks import NumberCheck, PythonCheck, ToolCalledCheck
from gent_eval.loading import SuiteError, load_suite, parse_suite

ROOT = Path(__file__).resolve().parents[3]

SUITE = """\
name: sample
defaults:
  tools: [calculator]
  max_steps: 4
files:
  shared.txt: shared
tasks:
  - id: divide
    text: What is 144 divided by 12?
    tags: [math]
    checks:
      - number: 12
      - tool_called: {name: calculator, args_match: {expression: '144'}}
  - text: What time is it?
    tools: [current_time]
    max_steps: 2
    files: {notes/today.txt: "hello"}
    checks:
      - contains: [a, b]
"""


def problems(text: str) -> list[str]:
    with pytest.raises(SuiteError) as caught:
        parse_suite(text, source="s.yaml")
    return [problem.render() for problem in caught.value.problems]


def test_defaults_and_overrides() -> None:
    suite = parse_suite(SUITE, source="dir/sample.yaml")
    first, second = suite.tasks
    assert suite.name == "sample"
    assert (first.id, second.id) == ("divide", "task-2")
    assert first.line == 8 and second.line == 14
    assert isinstance(first.checks[0], NumberCheck) and first.checks[0].value == 12
    assert isinstance(first.checks[1], ToolCalledCheck)
    assert first.config_overrides() == {"tools": ["calculator"], "max_steps": 4}
    assert second.config_overrides() == {"tools": ["current_time"], "max_steps": 2}
    assert dict(first.files) == {"shared.txt": "shared"}
    assert dict(second.files) == {"shared.txt": "shared", "notes/today.txt": "hello"}


def test_config_overrides_merge_defaults_and_task() -> None:
    text = """\
defaults:
  config: {allow_writes: true, thinking: false}
tasks:
  - text: a
  - text: b
    config: {thinking: true, model.temperature: 0.1}
"""
    first, second = parse_suite(text).tasks
    assert first.config_overrides() == {"allow_writes": True, "thinking": False}
    assert second.config_overrides() == {
        "allow_writes": True,
        "thinking": True,
        "model.temperature": 0.1,
    }


def test_no_defaults_keep_the_config() -> None:
    suite = parse_suite("tasks:\n  - text: hi\n")
    assert suite.tasks[0].config_overrides() == {}
    assert suite.name == "<string>"


def test_select_by_id_pattern_and_tag() -> None:
    suite = parse_suite(SUITE)
    assert [t.id for t in suite.select(["div*"]).tasks] == ["divide"]
    assert [t.id for t in suite.select(tags=["math"]).tasks] == ["divide"]
    assert [t.id for t in suite.select().tasks] == ["divide", "task-2"]
    assert suite.select(["nothing"]).tasks == ()


def test_every_problem_reported_with_line_and_key() -> None:
    text = """\
tasks:
  - id: a
    text: What is 2+2?
    checks:
      - number: 4
      - numbr: 3
      - regex: '(['
      - number: {value: four}
      - number: 1
        extra: 2
      - python: no_such_module_abc:fn
  - id: a
    text: ""
    max_steps: 0
    files: {"../x": "y"}
  - text: hi
    checks: [3]
    bogus: 1
"""
    found = problems(text)
    assert found == [
        "s.yaml, line 6, key 'tasks.0.checks.1.numbr': unknown check kind 'numbr' (did you "
        "mean 'number'?); accepted check kinds: contains, not_contains, regex, number, "
        "tool_called, result_in_answer, file, python",
        "s.yaml, line 7, key 'tasks.0.checks.2.regex': invalid regular expression '([': "
        "unterminated character set at position 2",
        "s.yaml, line 8, key 'tasks.0.checks.3.number.value': expected a number, got 'four'",
        "s.yaml, line 9, key 'tasks.0.checks.4': a check is a mapping with one key naming its "
        "kind (e.g. '- number: 12'); its keys are: 'number', 'extra'",
        "s.yaml, line 11, key 'tasks.0.checks.5.python': cannot import "
        "'no_such_module_abc:fn': No module named 'no_such_module_abc' (looked in the "
        f"installed packages and PYTHONPATH, then {Path.cwd().resolve()})",
        "s.yaml, line 13, key 'tasks.1.text': expected a non-empty string, got ''",
        "s.yaml, line 14, key 'tasks.1.max_steps': expected an integer >= 1 or null, got 0",
        "s.yaml, line 15, key 'tasks.1.files.../x': expected the relative path of a file "
        "inside the task's working directory, got '../x': it contains '..', which leads out of "
        "the directory",
        "s.yaml, line 17, key 'tasks.2.checks.0': expected a mapping, got 3",
        "s.yaml, line 18, key 'tasks.2.bogus': unknown key 'bogus'; accepted keys: id, text, "
        "checks, tools, max_steps, files, config, tags",
    ]


def test_duplicate_ids() -> None:
    found = problems("tasks:\n  - {id: a, text: x}\n  - {id: a, text: y}\n")
    assert found == ["s.yaml, line 3, key 'tasks.1.id': duplicate task id 'a' (first on line 2)"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tasks: [", "s.yaml, line 1: invalid YAML"),
        ("- a\n- b\n", "s.yaml, line 1: a suite is a mapping with a 'tasks' list"),
        ("name: x\n", "s.yaml, line 1, key 'tasks': missing required key 'tasks'"),
        ("tasks: []\n", "s.yaml, line 1, key 'tasks': "),
        ("tasks:\n  - text: x\n    checks:\n      - number: !!python/name:os.system\n", "tag"),
    ],
)
def test_document_problems(text: str, expected: str) -> None:
    assert expected in problems(text)[0]


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="suite file not found"):
        load_suite(tmp_path / "missing.yaml")
    with pytest.raises(SuiteError, match="is a directory"):
        load_suite(tmp_path)


def test_python_checks_import_from_the_suite_folder(tmp_path: Path) -> None:
    (tmp_path / "my_suite_checks_xyz.py").write_text(
        "def ok(context):\n    return context.answered\n"
    )
    (tmp_path / "s.yaml").write_text(
        "tasks:\n  - text: hi\n    checks:\n      - python: my_suite_checks_xyz:ok\n"
    )
    suite = load_suite(tmp_path / "s.yaml")
    check = suite.tasks[0].checks[0]
    assert isinstance(check, PythonCheck)
    assert suite.path == tmp_path / "s.yaml"
    assert suite.name == "s"


def test_shipped_suite_is_valid_and_large_enough() -> None:
    suite = load_suite(ROOT / "evals" / "basic-tools.yaml")
    assert len(suite.tasks) >= 40
    assert len({task.text for task in suite.tasks}) == len(suite.tasks)
    assert all(task.checks for task in suite.tasks)
    tools = {
        check.name
        for task in suite.tasks
        for check in task.checks
        if isinstance(check, ToolCalledCheck)
    }
    assert tools == {"calculator", "current_time"}


def test_shipped_files_suite_is_valid() -> None:
    suite = load_suite(ROOT / "evals" / "files-tools.yaml")
    assert len(suite.tasks) >= 10
    assert all(task.files and task.config_overrides()["allow_writes"] for task in suite.tasks)

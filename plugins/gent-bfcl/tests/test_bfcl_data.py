"""Reading BFCL tasks: from a folder, from an installed bfcl-eval (found by its metadata),
selection, and clear errors for bad data."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from gent_bfcl import (
    CATEGORIES,
    BFCLDataError,
    installed_data_dir,
    load_category,
    load_tasks,
    parse_categories,
    select,
)
from gent_bfcl.categories import check_kind

DATA = Path(__file__).with_name("data")


def test_tasks_come_with_their_possible_answers() -> None:
    tasks = load_category("simple_python", DATA)
    assert [task.id for task in tasks] == ["simple_python_0", "simple_python_1", "simple_python_2"]
    first = tasks[0]
    assert first.category == "simple_python"
    assert first.question == [[{"role": "user", "content": "What is 5 factorial?"}]]
    assert first.functions[0]["name"] == "math.factorial"
    assert first.possible_answer == [{"math.factorial": {"number": [5]}}]
    assert tasks[2].question[0][0]["role"] == "system"


def test_irrelevance_tasks_have_no_possible_answer() -> None:
    (task,) = load_category("irrelevance", DATA)
    assert task.possible_answer is None


def test_selection_keeps_every_kth_then_the_first_n() -> None:
    tasks = load_category("simple_python", DATA)
    assert [t.id for t in select(tasks, every=2)] == ["simple_python_0", "simple_python_2"]
    assert [t.id for t in select(tasks, every=2, limit=1)] == ["simple_python_0"]
    assert [t.id for t in select(tasks, limit=2)] == ["simple_python_0", "simple_python_1"]
    assert select(tasks, limit=0) == []
    with pytest.raises(ValueError, match="--every must be at least 1"):
        select(tasks, every=0)
    with pytest.raises(ValueError, match="--limit must be 0 or more"):
        select(tasks, limit=-1)


def test_load_tasks_selects_per_category_in_the_order_given() -> None:
    tasks = load_tasks(["parallel", "simple_python"], DATA, every=2)
    assert [t.id for t in tasks] == ["parallel_0", "simple_python_0", "simple_python_2"]


def test_categories() -> None:
    assert parse_categories("simple_python, multiple,simple_python") == [
        "simple_python",
        "multiple",
    ]
    assert [check_kind(c) for c in CATEGORIES] == [
        "simple",
        "multiple",
        "parallel",
        "parallel",
        "irrelevance",
        "simple",
        "multiple",
        "parallel",
        "parallel",
        "irrelevance",
    ]
    with pytest.raises(ValueError, match="unknown BFCL categories 'simple', 'java'; supported"):
        parse_categories("simple,java")
    with pytest.raises(ValueError, match="no BFCL category named"):
        parse_categories(" , ")


def _fake_install(site: Path) -> Path:
    """An installed bfcl-eval in ``site``: its data files and a dist-info listing them."""
    data = site / "bfcl_eval" / "data"
    shutil.copytree(DATA, data)
    info = site / "bfcl_eval-2026.1.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bfcl_eval\nVersion: 2026.1.1\n")
    files = [p.relative_to(site).as_posix() for p in data.rglob("*.json")]
    (info / "RECORD").write_text("".join(f"{f},,\n" for f in files))
    (site / "bfcl_eval" / "__init__.py").write_text("raise RuntimeError('imported')\n")
    return data


def test_the_installed_package_is_found_by_its_metadata_without_importing_it(
    tmp_path: Path,
) -> None:
    data = _fake_install(tmp_path)
    assert installed_data_dir([str(tmp_path)]) == data
    assert [t.id for t in load_category("parallel", installed_data_dir([str(tmp_path)]))] == [
        "parallel_0",
        "parallel_1",
    ]
    assert "bfcl_eval" not in sys.modules


def test_a_missing_package_says_how_to_install_it(tmp_path: Path) -> None:
    with pytest.raises(BFCLDataError, match="not installed") as caught:
        installed_data_dir([str(tmp_path)])
    assert caught.value.hint is not None
    assert "pip install --no-deps bfcl-eval" in caught.value.hint


def test_missing_folder_and_files_are_named(tmp_path: Path) -> None:
    with pytest.raises(BFCLDataError, match="no BFCL data folder"):
        load_category("simple_python", tmp_path / "nowhere")
    with pytest.raises(BFCLDataError, match="no file for the BFCL category 'multiple'"):
        load_category("multiple", tmp_path)
    (tmp_path / "multiple.json").write_text((DATA / "BFCL_v4_multiple.json").read_text())
    with pytest.raises(BFCLDataError, match="no file for the BFCL category 'multiple'"):
        load_category("multiple", tmp_path)  # the possible answers are missing


def test_the_highest_version_is_read(tmp_path: Path) -> None:
    line = json.loads((DATA / "BFCL_v4_irrelevance.json").read_text())
    for version, task_id in ((3, "old"), (4, "new")):
        (tmp_path / f"BFCL_v{version}_irrelevance.json").write_text(
            json.dumps({**line, "id": task_id})
        )
    assert [t.id for t in load_category("irrelevance", tmp_path)] == ["new"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "a list, not a JSON object"),
        ('{"question": [], "function": []}', "the 'id' is missing"),
        ('{"id": "x", "question": "hi", "function": []}', "'question' must be a list of turns"),
        (
            '{"id": "x", "question": [[{"role": "robot", "content": "hi"}]], "function": []}',
            "'question' must be a list of turns",
        ),
        (
            '{"id": "x", "question": [[{"role": "user", "content": "hi"}]], "function": [1]}',
            "'function' must be a list of function docs",
        ),
    ],
)
def test_a_bad_line_is_reported_with_its_file_and_number(
    tmp_path: Path, line: str, message: str
) -> None:
    good = (DATA / "BFCL_v4_irrelevance.json").read_text()
    (tmp_path / "irrelevance.json").write_text(good + "\n" + line + "\n")
    with pytest.raises(BFCLDataError, match=message) as caught:
        load_category("irrelevance", tmp_path)
    assert caught.value.location.line == 2
    assert str(caught.value.location.file).endswith("irrelevance.json")


def test_bad_or_missing_possible_answers_are_reported(tmp_path: Path) -> None:
    shutil.copy(DATA / "BFCL_v4_multiple.json", tmp_path / "multiple.json")
    (tmp_path / "possible_answer").mkdir()
    answers = tmp_path / "possible_answer" / "multiple.json"
    answers.write_text('{"id": "multiple_0", "ground_truth": [{"f": {"a": 1}}]}')
    with pytest.raises(BFCLDataError, match="'ground_truth' must be a list of calls"):
        load_category("multiple", tmp_path)
    answers.write_text('{"id": "other", "ground_truth": []}')
    with pytest.raises(BFCLDataError, match=r"have no possible answer \(first: 'multiple_0'\)"):
        load_category("multiple", tmp_path)

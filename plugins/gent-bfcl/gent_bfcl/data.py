"""Reading BFCL tasks and their possible answers, from the installed ``bfcl-eval`` or a folder.

BFCL keeps each category in two files of one JSON object per line (the layout of
``bfcl_eval/data`` in the ``bfcl-eval`` package)::

    BFCL_v4_simple_python.json                   {"id", "question", "function"}
    possible_answer/BFCL_v4_simple_python.json   {"id", "ground_truth"}

* ``question``: the conversation's turns, each a list of messages ``{"role", "content"}``
  (single-turn categories have one turn);
* ``function``: the function docs offered, in BFCL's schema dialect
  (:mod:`gent_bfcl.schema`);
* ``ground_truth``: the expected calls, ``[{name: {argument: [accepted values]}}]``, where
  ``""`` among the accepted values means the argument may be left out. Irrelevance
  categories have no possible-answer file: no call is expected.

The installed package is found through its distribution metadata (the files its ``RECORD``
lists), so none of its modules is imported: ``bfcl-eval`` depends on provider SDKs and
sentence-transformers, which gent does not need (``pip install --no-deps bfcl-eval`` is
enough). A folder holds the same files, with or without the ``BFCL_v<N>_`` prefix.

Selection is deterministic: :func:`select` keeps every ``every``-th task (the first, the
``every+1``-th...), then the first ``limit`` of those.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gent_bfcl.categories import check_kind
from gent_core import GentError, Location
from gent_core.workspace import probe_path

__all__ = [
    "DISTRIBUTION",
    "BFCLDataError",
    "BFCLTask",
    "category_files",
    "installed_data_dir",
    "load_category",
    "load_tasks",
    "select",
]

DISTRIBUTION = "bfcl-eval"
"""The distribution that ships BFCL's data."""

_PACKAGE = "bfcl_eval"
_ANSWERS = "possible_answer"
_ROLES = ("system", "user", "assistant")


class BFCLDataError(GentError):
    """BFCL data that cannot be read: a missing package, folder or file, or a line that is not
    a task (the error names the file and line, what is wrong and what is expected).
    """


@dataclass(frozen=True)
class BFCLTask:
    """One BFCL task (treat its lists as read-only).

    Attributes:
        id: BFCL's id (``"simple_python_0"``, ``"live_multiple_3-1-0"``).
        category: The category it was read from.
        question: The turns, each a list of messages ``{"role": ..., "content": ...}``.
        functions: The function docs offered, in BFCL's dialect.
        possible_answer: The expected calls ``[{name: {argument: [accepted values]}}]``;
            ``None`` for irrelevance categories (no call expected).
    """

    id: str
    category: str
    question: list[list[dict[str, Any]]]
    functions: list[dict[str, Any]]
    possible_answer: list[dict[str, dict[str, list[Any]]]] | None


# ---------------------------------------------------------------------- locating files


def _data_dir_of(dist: importlib.metadata.Distribution) -> Path | None:
    for file in dist.files or ():
        parts = file.parts
        if len(parts) >= 3 and parts[-3:-1] == (_PACKAGE, "data") and file.suffix == ".json":
            located = Path(str(dist.locate_file(file))).parent
            if located.is_dir():
                return located
    return None


def installed_data_dir(path: Sequence[str] | None = None) -> Path:
    """The ``bfcl_eval/data`` folder of the installed ``bfcl-eval``, found without importing it.

    Args:
        path: Where to look for installed distributions (a ``sys.path``-like list, such as
            another environment's ``site-packages``); default: this interpreter's path.

    Raises:
        BFCLDataError: When ``bfcl-eval`` is not installed there, or has no data folder.
    """
    search = list(path) if path is not None else sys.path
    for dist in importlib.metadata.distributions(name=DISTRIBUTION, path=search):
        found = _data_dir_of(dist)
        if found is not None:
            return found
    if path is None:  # an install without a RECORD (a source checkout on the path)
        spec = importlib.util.find_spec(_PACKAGE)  # finds, does not import
        for location in (spec.submodule_search_locations or []) if spec else []:
            candidate = Path(location) / "data"
            if candidate.is_dir():
                return candidate
    raise BFCLDataError(
        f"the {DISTRIBUTION} package is not installed"
        + (f" in {', '.join(search)}" if path is not None else ""),
        hint=f"Install its data with 'pip install --no-deps {DISTRIBUTION}' (its dependencies "
        "are not needed), or give a folder holding BFCL's files.",
    )


def category_files(category: str, folder: Path) -> tuple[Path, Path | None]:
    """The question file of ``category`` in ``folder`` and its possible-answer file (``None``
    for an irrelevance category). A file is named ``BFCL_v<N>_<category>.json`` or
    ``<category>.json``; with several versions, the highest is taken.

    Raises:
        ValueError: For an unsupported category.
        BFCLDataError: When ``folder`` or one of the files is missing.
    """
    kind = check_kind(category)
    probe = probe_path(folder)
    if not probe.is_dir:
        raise BFCLDataError(
            f"no BFCL data folder at {folder}"
            + (f" (it {probe.state})" if probe.kind == "unknown" else ""),
            hint="Give a folder holding BFCL_v4_<category>.json files and possible_answer/.",
        )
    questions = _find(folder, category)
    if kind == "irrelevance":
        return questions, None
    return questions, _find(folder / _ANSWERS, category)


def _find(folder: Path, category: str) -> Path:
    pattern = re.compile(rf"(?:BFCL_v(\d+)_)?{re.escape(category)}\.json")
    found: list[tuple[int, Path]] = []
    if probe_path(folder).is_dir:
        for entry in folder.iterdir():
            match = pattern.fullmatch(entry.name)
            if match and entry.is_file():
                found.append((int(match.group(1) or 0), entry))
    if not found:
        raise BFCLDataError(
            f"no file for the BFCL category {category!r} in {folder}",
            hint=f"Expected BFCL_v4_{category}.json (or {category}.json) there.",
        )
    return max(found)[1]


# ---------------------------------------------------------------------- reading lines


def _lines(file: Path) -> list[tuple[int, dict[str, Any]]]:
    """Every non-blank line of ``file`` as a JSON object, with its line number."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BFCLDataError(f"cannot read {file}: {error}") from error
    rows: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise _bad(file, number, f"not JSON ({error.msg}, column {error.colno})") from None
        if not isinstance(row, dict):
            raise _bad(file, number, f"a {type(row).__name__}, not a JSON object")
        rows.append((number, row))
    return rows


def _bad(file: Path, line: int, what: str) -> BFCLDataError:
    return BFCLDataError(
        f"{what}; expected one JSON object per line",
        location=Location(file=str(file), line=line),
    )


def _task(row: dict[str, Any], category: str, file: Path, line: int) -> BFCLTask:
    task_id, question, functions = row.get("id"), row.get("question"), row.get("function")
    if not isinstance(task_id, str):
        raise _bad(file, line, "the 'id' is missing or not a string")
    if not (
        isinstance(question, list)
        and question
        and all(
            isinstance(turn, list)
            and all(
                isinstance(m, dict)
                and m.get("role") in _ROLES
                and isinstance(m.get("content"), str)
                for m in turn
            )
            for turn in question
        )
    ):
        raise _bad(
            file,
            line,
            f"task {task_id!r}: 'question' must be a list of turns, each a list of "
            "messages {'role': ..., 'content': '...'}",
        )
    if not (
        isinstance(functions, list)
        and all(
            isinstance(f, dict) and isinstance(f.get("name"), str) and _is_object(f)
            for f in functions
        )
    ):
        raise _bad(
            file,
            line,
            f"task {task_id!r}: 'function' must be a list of function docs "
            "{'name': ..., 'description': ..., 'parameters': {'type': 'dict', ...}}",
        )
    return BFCLTask(task_id, category, question, functions, None)


def _is_object(function: dict[str, Any]) -> bool:
    parameters = function.get("parameters")
    return isinstance(parameters, dict) and isinstance(parameters.get("properties", {}), dict)


def _answer(row: dict[str, Any], file: Path, line: int) -> tuple[str, list[Any]]:
    task_id, truth = row.get("id"), row.get("ground_truth")
    if not isinstance(task_id, str):
        raise _bad(file, line, "the 'id' is missing or not a string")
    if not (
        isinstance(truth, list)
        and all(
            isinstance(call, dict)
            and len(call) == 1
            and all(
                isinstance(args, dict) and all(isinstance(v, list) for v in args.values())
                for args in call.values()
            )
            for call in truth
        )
    ):
        raise _bad(
            file,
            line,
            f"answer {task_id!r}: 'ground_truth' must be a list of calls "
            "{name: {argument: [accepted values]}}",
        )
    return task_id, truth


# ---------------------------------------------------------------------- loading


def load_category(category: str, source: str | Path | None = None) -> list[BFCLTask]:
    """Every task of ``category``, in file order, each with its possible answer.

    Args:
        category: A supported category (:data:`gent_bfcl.categories.CATEGORIES`).
        source: A folder of BFCL files; default: the installed ``bfcl-eval``'s data.

    Raises:
        ValueError: For an unsupported category.
        BFCLDataError: For missing files, malformed lines, or a task without an answer.
    """
    check_kind(category)
    folder = installed_data_dir() if source is None else Path(source)
    question_file, answer_file = category_files(category, folder)
    tasks = [_task(row, category, question_file, n) for n, row in _lines(question_file)]
    if answer_file is None:
        return tasks
    answers: dict[str, list[Any]] = {}
    for number, row in _lines(answer_file):
        task_id, truth = _answer(row, answer_file, number)
        answers[task_id] = truth
    missing = [task.id for task in tasks if task.id not in answers]
    if missing:
        raise BFCLDataError(
            f"{len(missing)} task(s) of {category!r} have no possible answer "
            f"(first: {missing[0]!r})",
            location=Location(file=str(answer_file)),
        )
    return [
        BFCLTask(task.id, category, task.question, task.functions, answers[task.id])
        for task in tasks
    ]


def select(
    tasks: Sequence[BFCLTask],
    *,
    limit: int | None = None,
    every: int | None = None,
    offset: int = 0,
) -> list[BFCLTask]:
    """Every ``every``-th task of ``tasks`` from the ``offset``-th (0: the first), then the
    first ``limit`` of them. Different offsets give disjoint subsets: tune on one, report on
    another.

    Raises:
        ValueError: When ``limit`` or ``offset`` is negative or ``every`` is less than 1.
    """
    if every is not None and every < 1:
        raise ValueError(f"--every must be at least 1, got {every}")
    if limit is not None and limit < 0:
        raise ValueError(f"--limit must be 0 or more, got {limit}")
    if offset < 0:
        raise ValueError(f"--offset must be 0 or more, got {offset}")
    chosen = list(tasks[offset :: every or 1])
    return chosen if limit is None else chosen[:limit]


def load_tasks(
    categories: Sequence[str],
    source: str | Path | None = None,
    *,
    limit: int | None = None,
    every: int | None = None,
    offset: int = 0,
) -> list[BFCLTask]:
    """The selected tasks of each category (:func:`select` applied per category), in the
    order the categories are given.

    Raises:
        ValueError, BFCLDataError: See :func:`load_category` and :func:`select`.
    """
    folder = installed_data_dir() if source is None else Path(source)
    return [
        task
        for category in categories
        for task in select(load_category(category, folder), limit=limit, every=every, offset=offset)
    ]

"""Reading a suite file: YAML -> :class:`~gent_eval.suite.Suite`, every problem at once.

The YAML is read with the config's reader (:func:`gent_core.config.read_config_document`:
safe, no Python tags, each value's line recorded, ``${VAR}`` expanded), validated with
pydantic, and every problem is worded by the config's helpers, so a suite error reads like a
config error::

    evals/mine.yaml, line 12, key 'tasks.3.checks.0.numbr': unknown check kind 'numbr' (did
    you mean 'number'?); accepted check kinds: contains, not_contains, regex, number, ...
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any, NoReturn, Protocol

from pydantic import BaseModel, ValidationError

from gent_core.bounds import FileKind, read_text_file
from gent_core.config import (
    format_key,
    problems_from_validation_error,
    read_config_document,
    unknown_problem,
)
from gent_core.errors import ConfigError, ConfigProblem, InputError, Location
from gent_eval.checks import Check, PythonCheck
from gent_eval.paths import relative_path_problem
from gent_eval.suite import Suite, SuiteModel, Task, TaskModel

__all__ = ["SuiteError", "load_suite", "parse_suite"]

SUITE_FILE = FileKind("suite file", "GENT_MAX_SUITE_SIZE", 4 * 1024 * 1024)
"""``gent eval`` suites: YAML like a config, and may carry the tasks' files."""

KeyPath = tuple[str | int, ...]
"""A path into the suite's YAML: mapping keys and list indexes, as the config reader marks them."""


class _Mark(Protocol):
    """Where the config reader saw a key written (1-based)."""

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


class SuiteError(ConfigError):
    """A suite file is invalid: every problem, each with its file, line and key."""

    def __init__(self, problems: Sequence[ConfigProblem], *, hint: str | None = None) -> None:
        lines = [problem.render() for problem in problems]
        if len(lines) > 1:
            source = problems[0].location.file
            head = f"{len(lines)} problems in the suite"
            lines.insert(0, f"{source}: {head}:" if source else f"{head}:")
        super().__init__("\n".join(lines), problems=problems, hint=hint)
        self._rendered = True  # the message already names every location


def _parts(name: str) -> tuple[str, ...]:
    """The parts of an accepted relative file name (``./a/b`` -> ``("a", "b")``); a
    backslash separates parts too.
    """
    return PurePosixPath(name.replace("\\", "/")).parts


@functools.cache
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema()


class _Reader:
    """Collects problems with their locations while a suite is read."""

    def __init__(
        self, source: str, marks: Mapping[KeyPath, _Mark], kinds: Mapping[str, type[Check]]
    ) -> None:
        self.source = source
        self.marks = marks
        self.kinds = kinds
        self.problems: list[ConfigProblem] = []

    def location(self, path: KeyPath) -> Location:
        probe = path
        while probe not in self.marks and probe:
            probe = probe[:-1]
        mark = self.marks.get(probe)
        return Location(
            file=self.source,
            line=mark.line if mark else None,
            column=mark.column if mark else None,
            key=format_key(path) or None,
        )

    def problem(self, path: KeyPath, message: str) -> None:
        self.problems.append(ConfigProblem(message, self.location(path)))

    def fail_if_problems(self) -> None:
        if self.problems:
            ordered = sorted(self.problems, key=lambda problem: problem.location.line or 0)
            raise SuiteError(ordered) from None

    def validation(self, error: ValidationError, model: type[BaseModel], prefix: KeyPath) -> None:
        for path, message in problems_from_validation_error(error, _schema(model), noun="key"):
            self.problem((*prefix, *path), message)

    # ------------------------------------------------------------------ parts

    def check(self, data: dict[str, Any], path: KeyPath, directory: Path) -> Check | None:
        if len(data) != 1:
            keys = ", ".join(repr(key) for key in data) or "none"
            self.problem(
                path,
                "a check is a mapping with one key naming its kind (e.g. '- number: 12'); "
                f"its keys are: {keys}",
            )
            return None
        kind, options = next(iter(data.items()))
        check_class = self.kinds.get(kind)
        if check_class is None:
            self.problem((*path, kind), unknown_problem(kind, list(self.kinds), "check kind"))
            return None
        short = not isinstance(options, Mapping)
        values = {check_class.short: options} if short else dict(options)
        try:
            check = check_class.model_validate(values)
        except ValidationError as error:
            found = problems_from_validation_error(error, _schema(check_class), noun="option")
            for option, message in found:
                where = (*path, kind) if short else (*path, kind, *option)
                self.problem(where, message)
            return None
        if isinstance(check, PythonCheck):
            try:
                check.resolve(directory)
            except ValueError as error:
                self.problem((*path, kind), str(error))
                return None
        return check

    def files(self, files: Mapping[str, str], path: KeyPath) -> None:
        """Report each name of ``files`` that cannot name a file in the working directory."""
        for name in files:
            problem = relative_path_problem(name)
            if problem is not None:
                self.problem(
                    (*path, name),
                    f"expected the relative path of a file inside the task's working "
                    f"directory, got {name!r}: {problem}",
                )

    def clashes(self, files: Mapping[str, str], path: KeyPath, own: Mapping[str, str]) -> None:
        """Report each name of ``own`` that clashes with another name of ``files`` (``own``
        and the suite's files, for a task): two names of one file, or a file that another
        name needs as a folder.
        """
        written: dict[tuple[str, ...], str] = {}
        for name in files:
            if relative_path_problem(name) is None:
                written.setdefault(_parts(name), name)
        for name in own:
            if relative_path_problem(name) is not None:
                continue
            parts = _parts(name)
            same = written.get(parts)
            if same is not None and same != name:
                self.problem((*path, name), f"{name!r} names the same file as {same!r}")
                continue
            for end in range(1, len(parts)):
                folder = written.get(parts[:end])
                if folder is not None:
                    self.problem(
                        (*path, name),
                        f"{name!r} needs {folder!r} to be a folder, but {folder!r} is a file "
                        "of the task too",
                    )
                    break


def parse_suite(
    text: str,
    *,
    source: str = "<string>",
    directory: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
    check_kinds: Mapping[str, type[Check]] | None = None,
) -> Suite:
    """Parse and validate a suite.

    Args:
        text: The YAML text.
        source: The file name used in messages (its stem is the default suite name).
        directory: Where ``python`` checks' modules are also looked for (default: the
            current directory).
        environ: The environment ``${VAR}`` references are read from.
        check_kinds: The check kinds a task may use, by name (default: gent-eval's own and
            those installed plugins add, :func:`gent_eval.extensions.check_kinds`).

    Raises:
        SuiteError: Listing every problem with its file, line and key, and what is accepted.
    """
    base = Path(directory) if directory is not None else Path.cwd()
    try:
        document = read_config_document(text, source, os.environ if environ is None else environ)
    except ConfigError as error:
        raise SuiteError(error.problems) from None
    if check_kinds is None:
        from gent_eval.extensions import check_kinds as installed_check_kinds

        check_kinds = installed_check_kinds()
    reader = _Reader(source, document.marks, check_kinds)
    for path, message, mark in document.problems:
        location = reader.location(path)
        if mark is not None:
            location = Location(file=source, line=mark.line, column=mark.column, key=location.key)
        reader.problems.append(ConfigProblem(message, location))
    if not isinstance(document.data, dict):
        reader.problem(
            (),
            "a suite is a mapping with a 'tasks' list (and optional name, "
            "description, defaults, files)",
        )
        reader.fail_if_problems()
    try:
        model = SuiteModel.model_validate(document.data)
    except ValidationError as error:
        reader.validation(error, SuiteModel, ())
        model = None
    reader.files(model.files if model else {}, ("files",))
    if model is not None:
        reader.clashes(model.files, ("files",), model.files)
    raw_tasks = document.data.get("tasks")
    tasks = _tasks(reader, raw_tasks if isinstance(raw_tasks, list) else [], base, model)
    reader.fail_if_problems()
    assert model is not None  # no problem means a valid model
    name = model.name or Path(source).stem or "suite"
    return Suite(name, None, tuple(tasks), model.description)


def _tasks(
    reader: _Reader, raw_tasks: list[Any], directory: Path, suite: SuiteModel | None
) -> list[Task]:
    """The valid tasks of the suite's ``tasks`` list, in order. Every problem goes to
    ``reader``: each task's own, and a task id given twice.
    """
    tasks: list[Task] = []
    first_line: dict[str, int | None] = {}
    for index, raw in enumerate(raw_tasks):
        if not isinstance(raw, dict):
            continue  # reported by the suite's validation
        task = _task(reader, raw, ("tasks", index), directory, suite)
        if task is None:
            continue
        if task.id in first_line:
            reader.problem(
                ("tasks", index, "id") if "id" in raw else ("tasks", index),
                f"duplicate task id {task.id!r} (first on line {first_line[task.id]})",
            )
        first_line.setdefault(task.id, task.line)
        tasks.append(task)
    return tasks


def _task(
    reader: _Reader, raw: dict[str, Any], path: KeyPath, directory: Path, suite: SuiteModel | None
) -> Task | None:
    """Validate one task and its checks (reporting every problem); ``None`` if invalid."""
    raw_checks = raw.get("checks")
    checks = [
        reader.check(data, (*path, "checks", number), directory)
        for number, data in enumerate(raw_checks if isinstance(raw_checks, list) else [])
        if isinstance(data, dict)
    ]
    raw_files = raw.get("files")
    reader.files(raw_files if isinstance(raw_files, dict) else {}, (*path, "files"))
    try:
        task = TaskModel.model_validate(raw)
    except ValidationError as error:
        reader.validation(error, TaskModel, path)
        return None
    if suite is None or any(check is None for check in checks):
        return None
    files = {**suite.files, **task.files}
    reader.clashes(
        files, (*path, "files"), {n: t for n, t in task.files.items() if n not in suite.files}
    )
    defaults = suite.defaults
    tools = task.tools if task.tools is not None else defaults.tools
    return Task(
        id=task.id or f"task-{path[-1] + 1 if isinstance(path[-1], int) else 0}",
        text=task.text,
        checks=tuple(check for check in checks if check is not None),
        tools=tuple(tools) if tools is not None else None,
        max_steps=task.max_steps or defaults.max_steps,
        files=files,
        config={**defaults.config, **task.config},
        tags=tuple(task.tags),
        line=reader.location(path).line,
    )


def _fail(source: str, message: str, hint: str | None = None) -> NoReturn:
    raise SuiteError([ConfigProblem(message, Location(file=source))], hint=hint)


def load_suite(
    path: str | os.PathLike[str],
    *,
    environ: Mapping[str, str] | None = None,
    check_kinds: Mapping[str, type[Check]] | None = None,
) -> Suite:
    """Read and validate the suite file at ``path``.

    ``python`` checks' modules are looked for in the file's directory too. The file may be at
    most 4 MiB (:data:`SUITE_FILE`; the environment variable
    ``GENT_MAX_SUITE_SIZE`` changes it); its size is checked before it is read.

    Raises:
        SuiteError: When the file cannot be read, or see :func:`parse_suite`.
    """
    source = os.fspath(path)
    file = Path(source)
    try:
        text = read_text_file(file, SUITE_FILE, environ=environ)
    except InputError as error:  # not found, unreadable, not UTF-8, too large
        _fail(source, error.problem, error.hint)
    suite = parse_suite(
        text,
        source=source,
        directory=file.parent.resolve(),
        environ=environ,
        check_kinds=check_kinds,
    )
    return Suite(suite.name, file, suite.tasks, suite.description)

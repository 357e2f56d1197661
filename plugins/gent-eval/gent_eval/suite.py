r"""An evaluation suite: tasks for an agent, each with the checks that say it was solved.

::

    name: basic-tools
    defaults:                     # apply to every task unless the task says otherwise
      tools: [calculator, current_time]
      max_steps: 6
      config: {allow_writes: true}  # any other agent config key
    files:                        # written into each run's fresh working directory
      notes.txt: "buy milk"
    tasks:
      - id: divide
        text: What is 144 divided by 12?
        checks:
          - number: 12
          - tool_called: calculator
      - text: What time is it in Tokyo?
        tools: [current_time]     # replaces the default tools for this task
        checks:
          - tool_called: {name: current_time, args: {timezone: Asia/Tokyo}}
          - result_in_answer: {tool: current_time, field: datetime, regex: 'T(\d\d:\d\d)'}

Read a suite with :func:`gent_eval.load_suite`; see :mod:`gent_eval.checks` for
every check kind.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from gent_core.config import ToolEntry, ToolSpec
from gent_eval.checks import Check

__all__ = ["Suite", "SuiteModel", "Task", "TaskModel"]


def _no_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("expected an integer >= 1")
    return value


_Count = Annotated[int, Field(ge=1), BeforeValidator(_no_bool)]


class DefaultsModel(BaseModel):
    """What every task gets unless it says otherwise.

    Attributes:
        tools: The tools the agent may call (replacing the config's tools).
        max_steps: Model calls allowed per run (replacing the config's ``max_steps``).
        config: Other agent config keys to set (dotted keys allowed), e.g.
            ``{allow_writes: true}`` for tools that write files.
    """

    model_config = ConfigDict(extra="forbid")

    tools: list[ToolEntry] | None = None
    max_steps: _Count | None = None
    config: dict[str, Any] = Field(default_factory=dict)


MAX_TASK_ID = 100
"""The most characters of a task id (it names each run's transcript and working directory)."""


def _short_id(value: str | None) -> str | None:
    if value is not None and len(value) > MAX_TASK_ID:
        raise ValueError(
            f"a task id may be at most {MAX_TASK_ID} characters (it names the run's transcript "
            f"file), got one of {len(value):,}"
        )
    return value


class TaskModel(BaseModel):
    """One task as written in a suite (checks are read separately, kind by kind).

    Attributes:
        id: A short unique name (letters, digits, ``_ . -``; at most :data:`MAX_TASK_ID`
            characters); ``task-N`` by default.
        text: What the agent is asked.
        checks: One-key mappings naming a check kind and its options.
        tools: The tools for this task (replacing the suite's default tools).
        max_steps: Model calls allowed for this task.
        files: Files written into the task's working directory before each run
            (relative path -> text), added to the suite's files.
        config: Other agent config keys to set for this task (added to the suite's).
        tags: Labels to select tasks with (``gent eval --tag``).
    """

    model_config = ConfigDict(extra="forbid")

    id: Annotated[str | None, AfterValidator(_short_id)] = Field(
        default=None, pattern=r"^[A-Za-z0-9_.-]+$"
    )
    text: str = Field(min_length=1)
    checks: list[dict[str, Any]] = Field(default_factory=list)
    tools: list[ToolEntry] | None = None
    max_steps: _Count | None = None
    files: dict[str, str] = Field(default_factory=dict)
    config: dict[str, Any] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)


class SuiteModel(BaseModel):
    """A suite as written in its YAML file.

    Attributes:
        name: The suite's name (the file's name without extension by default).
        description: What the suite measures.
        defaults: Settings every task gets unless it says otherwise.
        files: Files written into every run's working directory (relative path -> text).
        tasks: The tasks (at least one).
    """

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    description: str = ""
    defaults: DefaultsModel = Field(default_factory=DefaultsModel)
    files: dict[str, str] = Field(default_factory=dict)
    tasks: list[dict[str, Any]] = Field(min_length=1)
    """Each task is validated on its own (:class:`TaskModel`), so every task's problems are
    reported together."""


@dataclass(frozen=True)
class Task:
    """A task ready to run: the suite's defaults already applied.

    Attributes:
        id: Its unique name within the suite.
        text: What the agent is asked.
        checks: What the run must show to count as solved (besides answering).
        tools: The tools for the agent, or ``None`` to keep the config's.
        max_steps: Model calls allowed, or ``None`` to keep the config's.
        files: Files written into each run's fresh working directory (path -> text).
        config: Other agent config keys to set (dotted key -> value).
        tags: Labels.
        line: The line the task starts on in the suite file.
    """

    id: str
    text: str
    checks: tuple[Check, ...] = ()
    tools: tuple[ToolSpec, ...] | None = None
    max_steps: int | None = None
    files: Mapping[str, str] = field(default_factory=dict)
    config: Mapping[str, Any] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    line: int | None = None

    def config_overrides(self) -> dict[str, Any]:
        """The agent config keys this task sets (``tools``, ``max_steps``, its ``config``)."""
        overrides: dict[str, Any] = {}
        if self.tools is not None:
            overrides["tools"] = [spec.model_dump() for spec in self.tools]
        if self.max_steps is not None:
            overrides["max_steps"] = self.max_steps
        overrides.update(self.config)
        return overrides


@dataclass(frozen=True)
class Suite:
    """A loaded suite.

    Attributes:
        name: Its name.
        path: The file it was read from (``None`` when built in code).
        tasks: The tasks, in file order.
        description: What it measures.
    """

    name: str
    path: Path | None
    tasks: tuple[Task, ...]
    description: str = ""

    @property
    def directory(self) -> Path:
        """The suite file's directory (the current directory for a suite built in code)."""
        return self.path.parent if self.path is not None else Path.cwd()

    def select(self, ids: Iterable[str] = (), tags: Iterable[str] = ()) -> Suite:
        """The tasks whose id matches one of ``ids`` (shell patterns) and that carry one of
        ``tags``; an empty filter keeps every task.
        """
        patterns = list(ids)
        wanted = set(tags)
        tasks = tuple(
            task
            for task in self.tasks
            if (not patterns or any(fnmatch.fnmatchcase(task.id, p) for p in patterns))
            and (not wanted or wanted & set(task.tags))
        )
        return Suite(self.name, self.path, tasks, self.description)

    def every(self, every: int | None = None, limit: int | None = None) -> Suite:
        """Every ``every``-th task from the first, then the first ``limit`` of those
        (``gent eval --every K --limit N``: the same tasks on every run).
        """
        tasks = self.tasks[:: every or 1]
        if limit is not None:
            tasks = tasks[:limit]
        return Suite(self.name, self.path, tasks, self.description)

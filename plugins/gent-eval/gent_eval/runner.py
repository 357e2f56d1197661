"""Running a suite: every task under every configuration, ``repeat`` times, concurrently.

For each configuration, in order:

1. its model is created and loaded **once**, and shared by every run of the configuration;
2. each run builds its own agent from the configuration (with the task's ``tools`` and
   ``max_steps``), in a fresh working directory holding the suite's files when it has any,
   and records a JSONL transcript;
3. up to ``concurrency`` runs are in flight at once, but never more than the back end says
   it can serve: a model with ``max_concurrent_requests = 1`` (an in-process model, which
   generates for one request at a time) runs its tasks one after the other, and the result
   carries a note saying so;
4. the checks judge each finished run; with a transcripts folder, every run's record (status,
   the checks' verdicts, statistics, the path of its transcript) is appended to
   ``runs.jsonl`` there as soon as it finishes.

Everything is validated before the first run: a configuration or a task's tool that does not
build stops the evaluation at once with a :class:`~gent_core.errors.ConfigError`.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from gent_core.errors import ConfigError, ConfigProblem, GentError, describe_error
from gent_eval.checks import CheckContext
from gent_eval.configs import Configuration, apply_overrides
from gent_eval.records import EvalResult, RunRecord

if TYPE_CHECKING:
    from gent_core import Agent, GentPluginManager, LoadedConfig, Registry, RunResult
    from gent_core.model import Model
    from gent_eval.suite import Suite, Task

__all__ = ["RUNS_FILE", "EvalListener", "EvalRunner", "concurrency_limit"]

RUNS_FILE = "runs.jsonl"
"""The file of the transcripts folder listing every run's record, one JSON line each."""

_FAILED_STOPS = ("model_error", "plugin_error")
"""Stop reasons meaning the run could not run (the back end or a plugin failed)."""


def concurrency_limit(model: Model) -> int | None:
    """How many requests ``model`` serves at once, when its back end says so.

    A back end declares it with an integer attribute ``max_concurrent_requests`` (``1`` for
    a model generating in-process); ``None`` means no known limit.
    """
    limit = getattr(model, "max_concurrent_requests", None)
    return limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else None


def slug(text: str) -> str:
    """``text`` as a file name: letters, digits, ``. = + -``, other characters as ``_``."""
    return re.sub(r"[^\w.=+-]+", "_", text).strip("_") or "run"


class EvalListener(Protocol):
    """Receives progress as an evaluation runs."""

    def configuration_started(
        self, configuration: Configuration, runs: int, concurrency: int
    ) -> None:
        """A configuration's runs are about to start, ``concurrency`` at a time."""

    def run_finished(self, record: RunRecord) -> None:
        """A run finished (whatever its status)."""

    def configuration_finished(self, configuration: Configuration) -> None:
        """Every run of a configuration finished."""

    def note(self, text: str) -> None:
        """A remark for the person (also kept in the result's notes)."""


class _Silent:
    """A listener that ignores everything."""

    def configuration_started(
        self, configuration: Configuration, runs: int, concurrency: int
    ) -> None:
        del configuration, runs, concurrency

    def run_finished(self, record: RunRecord) -> None:
        del record

    def configuration_finished(self, configuration: Configuration) -> None:
        del configuration

    def note(self, text: str) -> None:
        del text


class EvalRunner:
    """Runs a suite under several configurations.

    Args:
        suite: The tasks.
        configurations: The configurations (see
            :func:`~gent_eval.configs.build_configurations`).
        repeat: Runs per task and configuration.
        concurrency: Runs in flight at once, at most (capped by each back end's limit).
        transcripts: The folder for run transcripts (and working directories of tasks with
            files); ``None`` keeps no transcript and uses temporary working directories.
        registry: Where components are looked up (default: the installed plugins).
        plugin_manager: Whose lifecycle hooks fire during runs (default: the installed
            plugins).
        run_timeout: Seconds one run may take before it is stopped and counted as an error.
        listener: Receives progress.
    """

    def __init__(
        self,
        suite: Suite,
        configurations: Sequence[Configuration],
        *,
        repeat: int = 1,
        concurrency: int = 1,
        transcripts: Path | str | None = None,
        registry: Registry | None = None,
        plugin_manager: GentPluginManager | None = None,
        run_timeout: float | None = None,
        listener: EvalListener | None = None,
    ) -> None:
        if repeat < 1 or concurrency < 1:
            raise ValueError("repeat and concurrency must be at least 1")
        self.suite = suite
        self.configurations = list(configurations)
        self.repeat = repeat
        self.concurrency = concurrency
        self.transcripts = Path(transcripts) if transcripts is not None else None
        self.run_timeout = run_timeout
        self.listener: EvalListener = listener or _Silent()
        self._manager = plugin_manager
        self._registry = registry
        self._result = EvalResult(
            suite=suite.name,
            suite_path=str(suite.path) if suite.path is not None else None,
            configurations=self.configurations,
            records=[],
            repeat=repeat,
            concurrency=concurrency,
            started=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            transcripts=str(self.transcripts) if self.transcripts is not None else None,
            tasks=[task.id for task in suite.tasks],
        )
        self._started = time.perf_counter()
        self._workspace: Path | None = None

    # ------------------------------------------------------------------ set-up

    @property
    def plugin_manager(self) -> GentPluginManager:
        """The plugin manager whose hooks fire during runs."""
        if self._manager is None:
            from gent_core import get_plugin_manager

            self._manager = get_plugin_manager()
        return self._manager

    @property
    def registry(self) -> Registry:
        """Where components are looked up."""
        if self._registry is None:
            from gent_core import Registry

            self._registry = Registry.from_plugin_manager(self.plugin_manager)
        return self._registry

    def _task_config(
        self, configuration: Configuration, task: Task, working_directory: Path | None
    ) -> LoadedConfig:
        overrides = task.config_overrides()
        if working_directory is not None:
            overrides["working_directory"] = str(working_directory)
        where = f"{self.suite.path}, line {task.line}" if self.suite.path else "the suite"
        return apply_overrides(
            configuration.loaded, overrides, origin=f"task {task.id!r} ({where})"
        )

    def validate(self) -> None:
        """Build every configuration, and every distinct task set-up under it, once.

        Raises:
            ConfigError: Every problem at once (an unknown component, a bad option, a
                task's tool that does not exist...).
        """
        from gent_core import build_components

        problems: list[ConfigProblem] = []
        for configuration in self.configurations:
            seen: set[str] = set()
            for task in self.suite.tasks:
                key = json.dumps(task.config_overrides(), sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                try:
                    build_components(self._task_config(configuration, task, None), self.registry)
                except ConfigError as error:
                    problems.extend(
                        self._from_task(problem, configuration, task) for problem in error.problems
                    )
        if problems:
            raise ConfigError(problems=list(dict.fromkeys(problems)))

    def _from_task(
        self, problem: ConfigProblem, configuration: Configuration, task: Task
    ) -> ConfigProblem:
        """Say which configuration a problem is in, and which task when the task set it."""
        message = f"{problem.message} [configuration {configuration.label!r}]"
        key = problem.location.key or ""
        if task.tools is not None and key.split(".")[0] == "tools":
            where = str(self.suite.path or "the suite")
            where += f", line {task.line}" if task.line else ""
            message += f" (the tools of task {task.id!r} in {where})"
        return ConfigProblem(message, problem.location)

    # ------------------------------------------------------------------ running

    def result(self) -> EvalResult:
        """The result so far (complete once :meth:`run` returned)."""
        self._result.seconds = time.perf_counter() - self._started
        return self._result

    async def run(self) -> EvalResult:
        """Validate, then run every task under every configuration.

        Raises:
            ConfigError: From :meth:`validate`, before anything runs.
        """
        self.validate()
        self._started = time.perf_counter()
        self._result.complete = False
        import tempfile

        with tempfile.TemporaryDirectory(prefix="gent-eval-") as scratch:
            self._workspace = (self.transcripts or Path(scratch)) / "workdirs"
            for configuration in self.configurations:
                await self._run_configuration(configuration)
        self._result.complete = True
        return self.result()

    def _log(self, record: RunRecord) -> None:
        """Append the run's record to ``runs.jsonl`` in the transcripts folder, if any."""
        if self.transcripts is None:
            return
        try:
            self.transcripts.mkdir(parents=True, exist_ok=True)
            with (self.transcripts / RUNS_FILE).open("a", encoding="utf-8") as file:
                file.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")
        except OSError as error:
            self._note(f"cannot write {RUNS_FILE} in {self.transcripts}: {error}")

    def _note(self, text: str) -> None:
        if text not in self._result.notes:
            self._result.notes.append(text)
            self.listener.note(text)

    async def _run_configuration(self, configuration: Configuration) -> None:
        from gent_core import build_components

        model = build_components(configuration.loaded, self.registry).model
        limit = concurrency_limit(model)
        parallel = min(self.concurrency, limit) if limit is not None else self.concurrency
        if parallel < self.concurrency:
            self._note(
                f"{configuration.label}: the back end ({model.describe()}) serves "
                f"{limit} request(s) at a time, so its runs were run {parallel} at a time "
                f"instead of {self.concurrency}"
            )
        jobs = [(task, k) for task in self.suite.tasks for k in range(1, self.repeat + 1)]
        self.listener.configuration_started(configuration, len(jobs), parallel)
        try:
            failure = await self._load(model)
            gate = asyncio.Semaphore(parallel)

            async def one(task: Task, repeat: int) -> None:
                async with gate:
                    if failure is not None:
                        record = RunRecord(
                            configuration.label, task.id, repeat, "error", error=failure
                        )
                    else:
                        record = await self._run_one(configuration, model, task, repeat)
                self._result.records.append(record)
                self._log(record)
                self.listener.run_finished(record)

            await asyncio.gather(*(one(task, repeat) for task, repeat in jobs))
        finally:
            await model.aclose()
        self.listener.configuration_finished(configuration)

    async def _load(self, model: Model) -> str | None:
        """Load the shared model; the reason it failed, or ``None``."""
        try:
            await model.load()
        except GentError as error:
            return f"the model could not be loaded: {error}"
        except Exception as error:  # noqa: BLE001 - a broken back end fails its runs, named
            return f"the model could not be loaded: {describe_error(error)}"
        return None

    def _paths(
        self, configuration: Configuration, task: Task, repeat: int
    ) -> tuple[Path | None, Path | None]:
        """The run's transcript file and working directory (``None``: none / the config's)."""
        name = f"{slug(task.id)}-r{repeat}"
        transcript = None
        if self.transcripts is not None:
            transcript = self.transcripts / slug(configuration.label) / f"{name}.jsonl"
        workdir = None
        if task.files:
            assert self._workspace is not None
            workdir = self._workspace / slug(configuration.label) / name
        return transcript, workdir

    async def _run_agent(
        self, agent: Agent, model: Model, task: str, transcript: Path | None
    ) -> RunResult:
        """Run ``agent`` on the shared ``model``; close the agent's own parts afterwards."""
        own_model, agent.model = agent.model, model
        try:
            run = agent.run(task, transcript=transcript)
            return await (asyncio.wait_for(run, self.run_timeout) if self.run_timeout else run)
        finally:
            agent.model = own_model  # closing the agent must not close the shared model
            await agent.aclose()

    async def _run_one(
        self, configuration: Configuration, model: Model, task: Task, repeat: int
    ) -> RunRecord:
        from gent_core import Agent

        transcript, workdir = self._paths(configuration, task, repeat)
        record = RunRecord(
            configuration.label,
            task.id,
            repeat,
            "error",
            transcript=str(transcript) if transcript is not None else None,
        )
        started = time.perf_counter()
        try:
            if workdir is not None:
                _write_files(workdir, task.files)
            loaded = self._task_config(configuration, task, workdir)
            agent = Agent.from_config(
                loaded, registry=self.registry, plugin_manager=self.plugin_manager
            )
            if transcript is not None and transcript.exists():
                transcript.unlink()  # a rerun into the same folder starts afresh
            result = await self._run_agent(agent, model, task.text, transcript)
        except asyncio.TimeoutError:
            record.error = f"the run took longer than {self.run_timeout:g} s and was stopped"
            record.seconds = time.perf_counter() - started
            return record
        except GentError as error:
            record.error = str(error)
            return record
        except OSError as error:
            record.error = f"cannot prepare the run: {error}"
            return record
        except Exception as error:  # noqa: BLE001 - one broken run never stops the others
            record.error = describe_error(error)
            return record
        _fill(record, result)
        context = CheckContext(task.text, result, agent.working_directory)
        record.checks = [check.evaluate(context) for check in task.checks]
        if record.stop_reason in _FAILED_STOPS:
            record.status = "error"
            record.error = result.message
        else:
            ok = result.ok and all(check.passed for check in record.checks)
            record.status = "passed" if ok else "failed"
            if not result.ok:
                record.error = result.message
        return record


def _write_files(directory: Path, files: Mapping[str, str]) -> None:
    """Create ``directory`` afresh with ``files`` (relative path -> text) in it."""
    import shutil

    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    for name, text in files.items():
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def _fill(record: RunRecord, result: RunResult) -> None:
    """Copy a run's outcome and statistics into its record."""
    stats = result.stats
    record.stop_reason = result.stop_reason
    record.answer = result.to_dict()["answer"]
    record.steps = stats.steps
    record.format_errors = sum(1 for step in result.steps if step.outcome == "feedback")
    record.tool_calls = sum(stats.tool_calls.values())
    record.tool_errors = sum(stats.tool_errors.values())
    record.input_tokens = stats.input_tokens
    record.output_tokens = stats.output_tokens
    record.tokens_reported = stats.tokens_reported
    record.seconds = stats.total_seconds

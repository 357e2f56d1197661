"""``gent eval bfcl:CATEGORY[,CATEGORY...][@FOLDER]``: BFCL in gent-eval, as a suite source.

The selector names BFCL categories (:data:`gent_bfcl.categories.CATEGORIES`), optionally
followed by ``@FOLDER``, a folder of BFCL files (default: the installed ``bfcl-eval``'s data).
``--every K`` and ``--limit N`` select tasks per category (:func:`gent_bfcl.data.select`).

Each configuration runs gent's agent on every task (:func:`gent_bfcl.agentrun.run_agent`:
the task's functions as declared tools, the first step judged by gent's BFCL checker), and
the baselines ``--baseline`` names (:mod:`gent_bfcl.baselines`; by default both) run on the
first configuration's model in the same run: BFCL's own prompt mode
(:func:`gent_bfcl.runner.run_baseline`), labelled ``bfcl-prompt``, and native function
calling (:func:`gent_bfcl.native.run_native`), labelled ``native-fc``, skipped with a note on
a model that is not behind an OpenAI-compatible server. The report gives, per configuration,
baseline and category, :func:`gent_bfcl.runner.summarize`'s figures: accuracy with its
95% Wilson interval, the share of unparsable outputs, the share of tasks by failure kind,
copied values and repairs, tokens and seconds per task.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_bfcl.baselines import BASELINE_MAX_TOKENS, DEFAULT_BASELINES, parse_baselines
from gent_bfcl.categories import parse_categories
from gent_bfcl.data import BFCLDataError, BFCLTask, load_tasks
from gent_bfcl.runner import TaskResult, summarize

if TYPE_CHECKING:
    from gent_eval import Configuration, SourceOptions, SourceReport

    from gent_bfcl.baselines import BaselineRun

__all__ = ["BASELINE_MAX_TOKENS", "COLUMNS", "BFCLEvaluation", "load", "report_rows"]

COLUMNS = (
    "configuration",
    "category",
    "tasks",
    "accuracy",
    "95% CI",
    "unparsable",
    "failures (share of tasks)",
    "copied",
    "tokens/task (in/out)",
    "s/task",
)
"""The columns of the table ``gent eval bfcl:...`` prints."""


def load(selector: str, options: SourceOptions) -> BFCLEvaluation:
    """The loader registered for ``bfcl:`` (see the module docstring).

    Raises:
        BFCLDataError: For an unknown category, a missing folder or package, or bad data,
            saying what is accepted.
    """
    spec, _, folder = selector.partition("@")
    try:
        categories = parse_categories(spec)
    except ValueError as error:
        raise BFCLDataError(
            f"bfcl:{selector}: {error}",
            hint="gent eval bfcl:CATEGORY[,CATEGORY...][@FOLDER], e.g. bfcl:simple_python,multiple",
        ) from None
    try:
        baselines = parse_baselines(options.baselines)
    except ValueError as error:
        raise BFCLDataError(f"--baseline: {error}", hint="--baseline prompt,native") from None
    source = Path(folder) if folder else None
    try:
        tasks = load_tasks(categories, source, limit=options.limit, every=options.every)
    except ValueError as error:
        raise BFCLDataError(f"bfcl:{selector}: {error}") from None
    return BFCLEvaluation(f"bfcl:{spec}", tasks, options.max_tokens, baselines)


def _percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def report_rows(results: Sequence[TaskResult]) -> list[list[str]]:
    """One row per configuration and category (:data:`COLUMNS`), in the order they ran."""
    rows = []
    configs = list(dict.fromkeys(result.config for result in results))
    for config in configs:
        summary = summarize([result for result in results if result.config == config])
        for category, entry in summary.items():
            tasks = entry["tasks"]
            failures = ", ".join(
                f"{kind} {_percent(count / tasks)}" for kind, count in entry["failures"].items()
            )
            low, high = entry["ci95"]
            accuracy = f"{entry['valid']}/{tasks} {_percent(entry['accuracy'])}"
            if entry["undecoded_no_call"]:
                accuracy += f" ({entry['undecoded_no_call']} undecoded)"
            rows.append(
                [
                    config,
                    category,
                    str(tasks),
                    accuracy,
                    f"{_percent(low)}-{_percent(high)}",
                    _percent(entry["unparsable_share"]),
                    failures or "-",
                    f"{entry['copied_calls']}/{entry['calls']}",
                    "{}/{}".format(*entry["tokens_per_task"]),
                    f"{entry['seconds_per_task']:.1f}",
                ]
            )
    return rows


def _accuracy(results: Sequence[TaskResult]) -> float:
    """Valid tasks of every category, of all tasks (what ``gent eval --pick`` ranks by)."""
    return sum(result.verdict.valid for result in results) / len(results) if results else 0.0


def _line(result: TaskResult) -> str:
    kind = result.verdict.kind
    verdict = "valid" if kind is None else f"invalid {kind.value}"
    return f"{result.config}\t{result.task_id}\t{verdict}\t{result.seconds:.1f}s"


class BFCLEvaluation:
    """BFCL's selected tasks under gent's configurations and the baselines.

    Attributes:
        name: ``bfcl:<categories>``.
        selected: The tasks, in category order.
        max_tokens: Tokens one model call may generate (``None``: the back end's default;
            BFCL's prompt mode then gets :data:`BASELINE_MAX_TOKENS`, native calling
            :data:`~gent_bfcl.native.NATIVE_MAX_TOKENS`).
        baselines: The baselines run on the first configuration's model
            (:mod:`gent_bfcl.baselines`: ``prompt``, ``native``).
    """

    def __init__(
        self,
        name: str,
        tasks: Sequence[BFCLTask],
        max_tokens: int | None,
        baselines: Sequence[str] = DEFAULT_BASELINES,
    ) -> None:
        self.name = name
        self.selected = list(tasks)
        self.max_tokens = max_tokens
        self.baselines = tuple(baselines)

    @property
    def tasks(self) -> int:
        """How many tasks each configuration runs."""
        return len(self.selected)

    async def run(
        self, configurations: Sequence[Configuration], progress: Callable[[str], None]
    ) -> SourceReport:
        """Run the baselines on the first configuration's model, then every configuration;
        report per configuration and category.

        Raises:
            ConfigError: When a configuration's model cannot be built (a model that is not
                installed), before anything runs.
        """
        from gent_bfcl.agentrun import AgentConfiguration, run_agent
        from gent_bfcl.baselines import run_baselines
        from gent_core import Registry, build_components, get_plugin_manager

        registry = Registry.from_plugin_manager(get_plugin_manager())
        results: list[TaskResult] = []

        def record(result: TaskResult) -> None:
            results.append(result)
            progress(_line(result))

        runs: list[BaselineRun] = []
        for index, configuration in enumerate(configurations):
            model = build_components(configuration.loaded, registry).model
            try:
                if index == 0:
                    runs = await run_baselines(
                        self.baselines,
                        model,
                        configuration.label,
                        self.selected,
                        max_tokens=self.max_tokens,
                        on_result=record,
                    )
                await run_agent(
                    AgentConfiguration(configuration.label, configuration.loaded),
                    model,
                    self.selected,
                    registry=registry,
                    max_tokens=self.max_tokens,
                    on_result=record,
                )
            finally:
                with contextlib.suppress(Exception):
                    await model.aclose()
        return self._report(configurations, runs, results)

    def _report(
        self,
        configurations: Sequence[Configuration],
        runs: Sequence[BaselineRun],
        results: Sequence[TaskResult],
    ) -> SourceReport:
        from gent_eval import SourceReport

        data: dict[str, Any] = {
            "suite": self.name,
            "baselines": {run.label: run.to_dict() for run in runs},
            "configurations": [configuration.to_dict() for configuration in configurations],
            "summary": {
                config: summarize([result for result in results if result.config == config])
                for config in dict.fromkeys(result.config for result in results)
            },
            "results": [result.to_dict() for result in results],
        }

        def score(label: str) -> float:
            return _accuracy([result for result in results if result.config == label])

        return SourceReport(
            title=f"gent eval: {self.name}",
            columns=COLUMNS,
            rows=report_rows(results),
            data=data,
            notes=(
                *(run.note for run in runs),
                "failures: the checker's verdict per task (no_call, wrong_count, "
                "wrong_function, missing_argument, unexpected_argument, wrong_type, "
                "wrong_value, call_made, unparsable, model_error); copied: calls holding a "
                "value copied from the prompt's example call, of all calls.",
                "irrelevance: '(N undecoded)' counts the tasks accepted only because the "
                "output could not be decoded at all (cut off or garbled), which BFCL counts "
                "as no call; the rest answered without a call.",
            ),
            scores={
                configuration.label: score(configuration.label) for configuration in configurations
            },
            baselines={run.label: score(run.label) for run in runs if run.ran},
        )

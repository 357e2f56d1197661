"""``gent eval``: measure how well agent configurations solve a suite of tasks.

::

    from gent_core._eval import EvalRunner, build_configurations, load_suite
    from gent_core._config import load_config

    suite = load_suite("evals/basic-tools.yaml")
    configurations = build_configurations(
        [("agent.yaml", load_config("agent.yaml"))],
        [("format", ["xml", "markdown"]), ("toolchain", ["json", "yaml"])],
    )
    result = asyncio.run(EvalRunner(suite, configurations, repeat=2).run())
    for summary in result.summaries():
        print(summary.label, summary.rate, summary.low, summary.high)

Modules: :mod:`~gent_core._eval.suite` and :mod:`~gent_core._eval.loading` (the suite file),
:mod:`~gent_core._eval.checks` (what a solved task shows), :mod:`~gent_core._eval.configs`
(config files x matrix), :mod:`~gent_core._eval.runner` (running), :mod:`~gent_core._eval.stats`
(success rates and intervals), :mod:`~gent_core._eval.report` (Markdown, JSON, chart).
Names are imported lazily, so ``import gent_core._eval`` costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS = {
    "Check": "gent_core._eval.checks",
    "CheckContext": "gent_core._eval.checks",
    "CheckOutcome": "gent_core._eval.checks",
    "Configuration": "gent_core._eval.configs",
    "build_configurations": "gent_core._eval.configs",
    "default_config": "gent_core._eval.configs",
    "EvalListener": "gent_core._eval.runner",
    "EvalRunner": "gent_core._eval.runner",
    "EvalResult": "gent_core._eval.records",
    "RunRecord": "gent_core._eval.records",
    "ConfigurationSummary": "gent_core._eval.stats",
    "wilson_interval": "gent_core._eval.stats",
    "Suite": "gent_core._eval.suite",
    "Task": "gent_core._eval.suite",
    "SuiteError": "gent_core._eval.loading",
    "load_suite": "gent_core._eval.loading",
    "parse_suite": "gent_core._eval.loading",
}

if TYPE_CHECKING:
    from gent_core._eval.checks import Check, CheckContext, CheckOutcome
    from gent_core._eval.configs import Configuration, build_configurations, default_config
    from gent_core._eval.loading import SuiteError, load_suite, parse_suite
    from gent_core._eval.records import EvalResult, RunRecord
    from gent_core._eval.runner import EvalListener, EvalRunner
    from gent_core._eval.stats import ConfigurationSummary, wilson_interval
    from gent_core._eval.suite import Suite, Task

__all__ = [
    "Check",
    "CheckContext",
    "CheckOutcome",
    "Configuration",
    "ConfigurationSummary",
    "EvalListener",
    "EvalResult",
    "EvalRunner",
    "RunRecord",
    "Suite",
    "SuiteError",
    "Task",
    "build_configurations",
    "default_config",
    "load_suite",
    "parse_suite",
    "wilson_interval",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())

"""gent-eval: ``gent eval`` measures how well agent configurations solve a suite of tasks.

::

    import asyncio

    from gent_core import load_config
    from gent_eval import EvalRunner, build_configurations, load_suite

    suite = load_suite("evals/basic-tools.yaml")
    configurations = build_configurations(
        [("agent.yaml", load_config("agent.yaml"))],
        [("format", ["xml", "markdown"]), ("toolchain", ["json", "yaml"])],
    )
    result = asyncio.run(EvalRunner(suite, configurations, repeat=2).run())
    for summary in result.summaries():
        print(summary.label, summary.rate, summary.low, summary.high)

Modules: :mod:`~gent_eval.suite` and :mod:`~gent_eval.loading` (the suite file),
:mod:`~gent_eval.checks` (what a solved task shows), :mod:`~gent_eval.configs`
(config files x matrix), :mod:`~gent_eval.runner` (running), :mod:`~gent_eval.stats`
(success rates and intervals), :mod:`~gent_eval.report` (Markdown, JSON, chart),
:mod:`~gent_eval.cli` (the command). Other packages extend it through its hooks
(:mod:`~gent_eval.hookspecs`): check kinds (:func:`check_kinds` lists them) and suite sources
(:mod:`~gent_eval.sources`, ``gent eval bfcl:simple_python``).
Names are imported lazily, so ``import gent_eval`` costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core import export_names, load_export

_EXPORTS = {
    "BUILTIN_CHECKS": "gent_eval.checks",
    "Check": "gent_eval.checks",
    "CheckContext": "gent_eval.checks",
    "CheckOutcome": "gent_eval.checks",
    "Configuration": "gent_eval.configs",
    "build_configurations": "gent_eval.configs",
    "default_config": "gent_eval.configs",
    "EvalListener": "gent_eval.runner",
    "EvalRunner": "gent_eval.runner",
    "EvalResult": "gent_eval.records",
    "RunRecord": "gent_eval.records",
    "ConfigurationSummary": "gent_eval.stats",
    "wilson_interval": "gent_eval.stats",
    "Suite": "gent_eval.suite",
    "Task": "gent_eval.suite",
    "SourceEvaluation": "gent_eval.sources",
    "SourceOptions": "gent_eval.sources",
    "SourceReport": "gent_eval.sources",
    "SuiteLoader": "gent_eval.sources",
    "check_kinds": "gent_eval.extensions",
    "suite_sources": "gent_eval.extensions",
    "SuiteError": "gent_eval.loading",
    "load_suite": "gent_eval.loading",
    "parse_suite": "gent_eval.loading",
}

if TYPE_CHECKING:
    from gent_eval.checks import BUILTIN_CHECKS, Check, CheckContext, CheckOutcome
    from gent_eval.configs import Configuration, build_configurations, default_config
    from gent_eval.extensions import check_kinds, suite_sources
    from gent_eval.loading import SuiteError, load_suite, parse_suite
    from gent_eval.records import EvalResult, RunRecord
    from gent_eval.runner import EvalListener, EvalRunner
    from gent_eval.sources import SourceEvaluation, SourceOptions, SourceReport, SuiteLoader
    from gent_eval.stats import ConfigurationSummary, wilson_interval
    from gent_eval.suite import Suite, Task

__all__ = [
    "BUILTIN_CHECKS",
    "Check",
    "CheckContext",
    "CheckOutcome",
    "Configuration",
    "ConfigurationSummary",
    "EvalListener",
    "EvalResult",
    "EvalRunner",
    "RunRecord",
    "SourceEvaluation",
    "SourceOptions",
    "SourceReport",
    "Suite",
    "SuiteError",
    "SuiteLoader",
    "Task",
    "build_configurations",
    "check_kinds",
    "default_config",
    "load_suite",
    "parse_suite",
    "suite_sources",
    "wilson_interval",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())

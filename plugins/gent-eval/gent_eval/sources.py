"""Suites from elsewhere: ``gent eval PREFIX:SELECTOR`` (``gent eval bfcl:simple_python``).

A package registers a :data:`SuiteLoader` under a prefix through the
``gent_eval_suite_sources`` hook (:mod:`gent_eval.hookspecs`). ``gent eval`` calls it with
the selector and the command line's :class:`SourceOptions`; the
:class:`SourceEvaluation` it returns runs every configuration (the config files crossed
with ``--matrix``, as for a suite file) and gives back a :class:`SourceReport`: a table
``gent eval`` prints, a JSON-ready report and, when asked, Markdown.

The source judges the runs its own way (a benchmark's checker, its own baseline), so its
report has its own columns; what ``gent eval`` adds is the command line, the configurations,
progress, the table and the report files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from gent_eval.configs import Configuration

__all__ = ["SourceEvaluation", "SourceOptions", "SourceReport", "SuiteLoader"]


@dataclass(frozen=True)
class SourceOptions:
    """What the command line says about the tasks and the runs.

    Attributes:
        every: Keep every K-th task (of each group the source has, such as a category),
            from the first.
        limit: Then the first N of those.
        max_tokens: Tokens one model call may generate (``None``: the back end's default).
        baselines: The baselines to run beside the configurations, by the names the source
            gives them (``--baseline prompt,native``; ``()``: none); ``None``: the source's
            default.
    """

    every: int | None = None
    limit: int | None = None
    max_tokens: int | None = None
    baselines: tuple[str, ...] | None = None


@dataclass(frozen=True)
class SourceReport:
    """What a source's evaluation found.

    Attributes:
        title: The table's title (``gent eval: bfcl:simple_python``).
        columns: The table's column names.
        rows: One row of cells per line (configuration and group).
        data: The JSON report (``gent eval --report FILE.json``).
        notes: Remarks printed under the table (what a column means, a baseline).
        scores: Each configuration's score by its label, higher is better (what
            ``gent eval --pick`` ranks by; a baseline that is not a configuration is left
            out).
        baselines: Each baseline's score by its label, on the same scale as ``scores``
            (``gent eval --pick`` writes them beside the winner's and says when one beat it).
    """

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    data: dict[str, Any] = field(default_factory=dict)
    notes: Sequence[str] = ()
    scores: Mapping[str, float] = field(default_factory=dict)
    baselines: Mapping[str, float] = field(default_factory=dict)

    def markdown(self) -> str:
        """The report as Markdown: the title, the table, the notes."""
        lines = [f"# {self.title}", ""]
        lines.append("| " + " | ".join(self.columns) + " |")
        lines.append("|" + "|".join("---" for _ in self.columns) + "|")
        for row in self.rows:
            cells = [str(cell).replace("|", "\\|") for cell in row]
            lines.append("| " + " | ".join(cells) + " |")
        if self.notes:
            lines.append("")
            lines += [f"- {note}" for note in self.notes]
        return "\n".join(lines) + "\n"


class SourceEvaluation(Protocol):
    """An evaluation a suite source prepared (its tasks read and selected)."""

    @property
    def name(self) -> str:
        """What is evaluated, for the table's title (``bfcl:simple_python``)."""

    @property
    def tasks(self) -> int:
        """How many tasks each configuration runs."""

    async def run(
        self, configurations: Sequence[Configuration], progress: Callable[[str], None]
    ) -> SourceReport:
        """Run every configuration on the tasks and report.

        ``progress`` takes one line per finished task. Nothing a model, a configuration or a
        task does may raise out of it: a failing run is a result in the report. A problem
        that stops the whole evaluation (a configuration naming a model that is not
        installed) raises :class:`~gent_core.GentError`.
        """
        ...


SuiteLoader = Callable[[str, SourceOptions], SourceEvaluation]
"""``loader(selector, options)``: the evaluation of the tasks ``selector`` names.

Raises:
    GentError: (:class:`~gent_eval.SuiteError` for instance) when the selector or the data
        cannot be read, saying what is accepted.
"""

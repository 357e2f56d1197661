"""The hooks gent-eval adds to gent's plugin contract (through ``gent_add_hookspecs``).

Another package extends ``gent eval`` by implementing them in its gent plugin (the module its
``gent`` entry point names)::

    from gent_core import hookimpl

    @hookimpl
    def gent_eval_checks():
        from my_package.checks import WordCountCheck

        return [WordCountCheck]

    @hookimpl
    def gent_eval_suite_sources():
        from my_package.source import load

        return {"mybench": load}  # gent eval mybench:SELECTOR

Both are registration hooks: called when a suite is read, cheap, importing what they return
only inside the function.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gent_core import hookspec

if TYPE_CHECKING:
    from gent_eval.checks.base import Check
    from gent_eval.sources import SuiteLoader

__all__ = ["gent_eval_checks", "gent_eval_suite_sources"]


@hookspec
def gent_eval_checks() -> Sequence[type[Check]]:
    """Supply check kinds for the tasks of ``gent eval`` suites.

    Returns:
        :class:`~gent_eval.Check` subclasses. Each names its kind in the class variable
        ``kind`` (the key a suite writes: ``- word_count: 12``) and the option a short form
        sets in ``short``; its fields are its options, validated when the suite loads.
        A kind already taken (by gent-eval's own checks or an earlier plugin) is not added:
        the suite reader logs a warning naming both.

    All implementations are called; results are merged.
    """


@hookspec
def gent_eval_suite_sources() -> Mapping[str, SuiteLoader]:
    """Supply suites read from elsewhere than a suite file: ``gent eval PREFIX:SELECTOR``.

    Returns:
        A mapping of prefix (``"bfcl"``: lowercase letters, digits, ``-`` and ``_``, two
        characters or more so a Windows drive is never one) to a
        :data:`~gent_eval.SuiteLoader`: called with the selector (the text after the colon)
        and the :class:`~gent_eval.SourceOptions` of the command line, it returns a
        :class:`~gent_eval.SourceEvaluation` that runs the configurations and gives the
        table and the report. A loader raises :class:`~gent_eval.SuiteError` (or any
        :class:`~gent_core.GentError`) for a selector it cannot read, saying what it accepts.

    All implementations are called; results are merged (a prefix supplied twice is left out,
    with a warning).
    """

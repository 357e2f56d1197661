"""Fuzz target: ``gent call``'s reader of its arguments
(:func:`gent_core._cli.call.parse_arguments`).

The choice byte picks where the text goes: ARGS (a JSON object), one ``--arg KEY=VALUE`` per
line, or both (the first line is ARGS). The reader documents two errors, both ending the
command with exit code 2: :class:`~gent_core._cli.errors.UsageError` (ARGS is not a JSON
object, a pair has no ``=``) and :class:`~gent_core.errors.InputBoundsError` (a value beyond
gent's bounds). Whatever the text, nothing else is raised, and the arguments read are a dict
of JSON values within gent's bounds.
"""

from __future__ import annotations

from fuzz.targets.contract import check_args, decode, outcome
from gent_core._cli.call import parse_arguments
from gent_core._cli.errors import UsageError
from gent_core.errors import InputBoundsError


def split(choice: int, text: str) -> tuple[str | None, list[str]]:
    """ARGS and the ``--arg`` pairs for ``text``, as ``choice`` says."""
    mode = choice % 3
    if mode == 0:
        return text, []
    lines = text.split("\n")
    if mode == 1:
        return None, lines
    return lines[0], lines[1:]


def test_one_input(data: bytes) -> None:
    """Check the contract on one input."""
    choice, text = decode(data)
    arguments_text, pairs = split(choice, text)
    arguments = outcome(
        lambda: parse_arguments(arguments_text, pairs), UsageError, InputBoundsError
    )
    if isinstance(arguments, dict):
        check_args(arguments, "arguments")

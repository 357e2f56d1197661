"""When ``gent`` writes colours: one rule for the live view, tables and progress bars.

In order, the first that applies decides:

1. ``--no-color`` (global or on the command): no colours;
2. ``NO_COLOR`` set to any non-empty value (https://no-color.org): no colours;
3. ``FORCE_COLOR`` set to any non-empty value (https://force-color.org): colours, also when
   the output is a file or a pipe;
4. ``TERM=dumb``: no colours;
5. otherwise colours only when the stream is a terminal.

Colours never change *what* is written: with them off, no ANSI sequence is written at all.
Animated progress bars need a real terminal; forcing colours does not turn them on in a pipe.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["color_enabled", "is_terminal", "rich_console"]


def is_terminal(stream: IO[Any] | Any) -> bool:
    """Whether ``stream`` is an interactive terminal (``False`` for closed or odd streams)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (ValueError, OSError):  # closed
        return False


def color_enabled(
    stream: IO[Any] | Any,
    *,
    no_color: bool = False,
    environ: Mapping[str, str] | None = None,
) -> bool:
    """Whether to write ANSI colours to ``stream`` (see the module docstring for the rule).

    Args:
        stream: Where the text goes.
        no_color: ``--no-color`` was given.
        environ: The environment (default: ``os.environ``).
    """
    env = os.environ if environ is None else environ
    if no_color or env.get("NO_COLOR", ""):
        return False
    if env.get("FORCE_COLOR", ""):
        return True
    if env.get("TERM", "") == "dumb":
        return False
    return is_terminal(stream)


def rich_console(*, stderr: bool = False, no_color: bool = False, **options: Any) -> Console:
    """A :class:`rich.console.Console` that follows gent's colour rule.

    Args:
        stderr: Write to standard error instead of standard output.
        no_color: ``--no-color`` was given.
        options: More keyword arguments for the console (``width``...).
    """
    import sys

    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    color = color_enabled(stream, no_color=no_color)
    return Console(
        stderr=stderr,
        color_system="auto" if color else None,
        no_color=not color,
        force_terminal=True if color and not is_terminal(stream) else None,
        force_interactive=is_terminal(stream),
        **options,
    )

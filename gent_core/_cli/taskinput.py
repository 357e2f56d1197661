"""The task of ``gent run`` from standard input: ``echo TASK | gent run`` and ``gent run -``.

The task is read from standard input when it is given as ``-``, or when no task is given and
standard input is a pipe or a file (not a terminal, not ``/dev/null``). It is read within
the bound of :data:`~gent_core._bounded.TASK_INPUT` (``GENT_MAX_TASK_SIZE``, 4 MiB by
default; nothing past it is read), decoded as UTF-8, and the line ends that close it are
dropped (``echo`` adds one), as the shell's ``$(...)`` does; nothing else of it changes.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import IO

from gent_core._cli.errors import UsageError

__all__ = ["STDIN_TASK", "read_task", "stdin_has_input"]

STDIN_TASK = "-"
"""The task argument that means "read the task from standard input"."""


def stdin_has_input(stream: IO[str] | None = None) -> bool:
    """Whether standard input is a pipe or a regular file (something was piped or
    redirected in), rather than a terminal, ``/dev/null`` or nothing at all.
    """
    stream = sys.stdin if stream is None else stream
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (AttributeError, OSError, ValueError):  # closed, or not a real file (embedding)
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode)


def read_task(stream: IO[str] | None = None) -> str:
    """Read the task from standard input (see the module docstring).

    Raises:
        InputTooLargeError: More than ``GENT_MAX_TASK_SIZE`` arrived.
        UsageError: It is not UTF-8 text, or holds no task (only white space).
    """
    from gent_core._bounded import TASK_INPUT, read_stream, size_limit
    from gent_core.errors import InputTooLargeError

    stream = sys.stdin if stream is None else stream
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        data = read_stream(buffer, "standard input", TASK_INPUT)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise UsageError(
                f"the task on standard input is not UTF-8 text (invalid byte "
                f"0x{data[error.start]:02x} at offset {error.start}); give the task as UTF-8"
            ) from None
    else:  # a text stream without bytes underneath (embedding, tests): bounded in characters
        limit = size_limit(TASK_INPUT)
        text = stream.read(limit + 1)
        if len(text) > limit:
            raise InputTooLargeError(
                f"the task on standard input holds more than {limit:,} characters",
                hint=f"To read a larger task, set {TASK_INPUT.variable} to a larger size.",
            )
    text = text.rstrip("\r\n")
    if not text.strip():
        raise UsageError(
            'standard input holds no task; pipe one in (echo "What is 2 + 2?" | gent run) '
            'or give it as an argument (gent run "What is 2 + 2?")'
        )
    return text

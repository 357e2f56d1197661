"""Logging for the ``gent`` command: ``-v``/``-q`` choose what is shown, on standard error.

Every command takes ``-v/--verbose`` and ``-q/--quiet``, before or after its name, counted
(``-vv``); the verbosity is the number of ``-v`` minus the number of ``-q``:

========== ================================= ================================
verbosity  gent's loggers (``gent``, ``gent.*``, ``gent_*``)  other libraries
========== ================================= ================================
``-q``     errors                            errors
(default)  warnings                          warnings
``-v``     information (which config, ...)   warnings
``-vv``    debug                             warnings
``-vvv``   debug                             debug
========== ================================= ================================

Records are written through the command's :class:`~gent_core._cli.output.Output` rules: every
secret of the loaded config is masked (:func:`redact_logs_with`) and control characters are
shown as escapes. A record's traceback is shown only at ``-vv`` and above; below that, one
line names the exception.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gent_core._cli.output import Output

__all__ = ["OutputHandler", "level_for", "logging_for", "redact_logs_with"]

_GENT_LEVELS = {-1: logging.ERROR, 0: logging.WARNING, 1: logging.INFO, 2: logging.DEBUG}
_OTHER_LEVELS = {-1: logging.ERROR, 0: logging.WARNING, 1: logging.WARNING, 2: logging.WARNING}


def level_for(verbosity: int, *, gent: bool = True) -> int:
    """The lowest level shown at ``verbosity`` for gent's loggers (or, ``gent=False``,
    for other libraries').
    """
    if verbosity >= 3:
        return logging.DEBUG
    table = _GENT_LEVELS if gent else _OTHER_LEVELS
    return table[max(verbosity, -1)]


def _root_level(verbosity: int) -> int:
    return min(level_for(verbosity), level_for(verbosity, gent=False))


def _is_gent(name: str) -> bool:
    return name == "gent" or name.startswith(("gent.", "gent_"))


class OutputHandler(logging.Handler):
    """Writes log records to standard error through an :class:`Output` (redacted, with
    control characters escaped), filtered by :func:`level_for`.

    Args:
        verbosity: ``-v`` count minus ``-q`` count.
        output: Where records go (its redaction applies); by default an
            :class:`Output` made when the first record is shown (so a command that logs
            nothing never imports the writer).
    """

    def __init__(self, verbosity: int, output: Output | None = None) -> None:
        super().__init__(logging.DEBUG)
        self.verbosity = verbosity
        self._output = output
        self._redactors: list[Callable[[str], str]] = []

    @property
    def output(self) -> Output:
        """Where records go."""
        if self._output is None:
            from gent_core._cli.output import Output

            self._output = Output()
        return self._output

    def set_verbosity(self, verbosity: int) -> None:
        """Show records at ``verbosity`` from now on (the root logger's level follows)."""
        self.verbosity = verbosity
        logging.getLogger().setLevel(_root_level(verbosity))

    def add_redactor(self, redact: Callable[[str], str]) -> None:
        """Mask what ``redact`` masks in every later record too."""
        self._redactors.append(redact)

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether ``record`` is shown at this verbosity."""
        return record.levelno >= level_for(self.verbosity, gent=_is_gent(record.name))

    def render(self, record: logging.LogRecord) -> str:
        """``<level>: <logger>: <message>`` (the logger only from ``-v`` on), then the
        exception: its traceback from ``-vv`` on, else one line.
        """
        message = record.getMessage()
        level = record.levelname.lower()
        if self.verbosity >= 1:
            text = f"{level}: {record.name}: {message}"
        else:
            text = f"gent: {level}: {message}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            if self.verbosity >= 2:
                text += "\n" + logging.Formatter().formatException(record.exc_info).rstrip()
            else:
                from gent_core.errors import describe_error  # rare: the start stays light

                text += f" ({describe_error(error)})"
        for redact in self._redactors:
            text = redact(text)
        return text

    def emit(self, record: logging.LogRecord) -> None:
        """Write ``record`` on standard error."""
        try:
            self.output.line(self.render(record), err=True)
        except Exception:  # noqa: BLE001 - logging must never break the command
            self.handleError(record)


_active: list[OutputHandler] = []


def redact_logs_with(redact: Callable[[str], str]) -> None:
    """Mask what ``redact`` masks (a loaded config's secrets) in the active log handler."""
    for handler in _active:
        handler.add_redactor(redact)


@contextmanager
def logging_for(verbosity: int) -> Iterator[OutputHandler]:
    """Show log records on standard error at ``verbosity`` while the block runs.

    The handler goes on the root logger (plugins log under names of their own); the previous
    root level comes back afterwards, so running ``main()`` twice in one process (tests)
    leaves nothing behind.
    """
    root = logging.getLogger()
    handler = OutputHandler(verbosity)
    previous = root.level
    root.setLevel(_root_level(verbosity))
    root.addHandler(handler)
    _active.append(handler)
    try:
        yield handler
    finally:
        _active.remove(handler)
        root.removeHandler(handler)
        root.setLevel(previous)

"""The signals that stop a command: Ctrl-C (SIGINT), SIGTERM and SIGHUP, handled alike.

``timeout``, CI cancellation and service managers send SIGTERM, a closing terminal sends
SIGHUP. Python's default for both is to die at once, which skips every ``finally`` block and
exit handler, so an MCP server busy in a call (and anything it started, in a session of its
own) would be left running, re-parented to PID 1. While :func:`stop_signals` is open, SIGTERM
and SIGHUP raise :class:`KeyboardInterrupt` in the main thread, as Python's own SIGINT handler
does, and :mod:`gent_core._cli.interrupt` takes all three through its two-stage handling while
a command's event loop runs. So every ``except KeyboardInterrupt`` of a command handles them
too: toolsets are closed, process groups ended, the history and the transcript record an
interrupted run.

The command then returns :data:`EXIT_INTERRUPTED`, and :func:`exit_status` turns that into
128 + the number of the signal that stopped it, as a shell reports a process killed by it:
130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP. (gent exits with that status rather than
killing itself with the signal again: the same convention as its Ctrl-C, and what the
``timeout`` command and shells print for it.)

A signal the process ignored when it started (``nohup`` ignores SIGHUP) stays ignored.

After the command (:func:`guard_exit`), when gent owns the process: a first signal no longer
raises (an exit handler, such as a tracer's bounded flush, would print a traceback and be
cut short); it is noted, and the process exits with its status once the exit handlers ran.
A second one ends the process at once.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

__all__ = [
    "EXIT_INTERRUPTED",
    "STOP_SIGNALS",
    "ends_session",
    "exit_status",
    "guard_exit",
    "last_signal",
    "note_signal",
    "stop_signals",
]

EXIT_INTERRUPTED = 130
"""The status a command returns when a stop signal ended it (128 + SIGINT); see
:func:`exit_status` for the status the process exits with."""

STOP_SIGNALS: tuple[int, ...] = tuple(
    int(getattr(signal, name)) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals that end a command the way Ctrl-C does (those the platform has)."""

_OTHER_SIGNALS = tuple(number for number in STOP_SIGNALS if number != signal.SIGINT)

_last: list[int] = []  # the last stop signal that reached a command (at most one entry)
_exit_signals: list[int] = []  # the signals received while the process was exiting


def note_signal(signum: int) -> None:
    """Remember ``signum`` as the signal that stops the current command."""
    _last[:] = [signum]


def last_signal() -> int | None:
    """The stop signal that reached the current command last, or ``None``."""
    return _last[0] if _last else None


def ends_session() -> bool:
    """Whether the last stop signal ends a whole session (SIGTERM, SIGHUP), not only the turn
    in progress (Ctrl-C in ``gent chat``).
    """
    number = last_signal()
    return number is not None and number != signal.SIGINT


def exit_status(code: int) -> int:
    """The exit status of a command that returned ``code``: for :data:`EXIT_INTERRUPTED`, 128
    + the signal that stopped it (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP); any other
    code unchanged.
    """
    number = last_signal()
    if code != EXIT_INTERRUPTED or number is None:
        return code
    return 128 + number


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    note_signal(signum)
    raise KeyboardInterrupt


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """While open, SIGTERM and SIGHUP raise :class:`KeyboardInterrupt` as Ctrl-C does (in the
    main thread; elsewhere, and for a signal the process ignores, nothing changes). The
    previous handlers are put back on leaving.
    """
    _last.clear()
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, object] = {}
    try:
        for number in _OTHER_SIGNALS:
            current = signal.getsignal(number)
            if current is signal.SIG_IGN:
                continue
            previous[number] = signal.signal(number, _raise_interrupt)
        yield
    finally:
        for number, handler in previous.items():
            if signal.getsignal(number) is _noted_at_exit:
                continue  # guard_exit took over: the exit's handling stays
            with contextlib.suppress(ValueError, TypeError, OSError):
                signal.signal(number, handler)  # type: ignore[arg-type]


def _noted_at_exit(signum: int, frame: FrameType | None) -> None:
    _exit_signals.append(signum)
    if len(_exit_signals) > 1:  # asked twice: leave now
        os._exit(128 + _exit_signals[0])


def _exit_with_signal() -> None:
    """The last exit handler: exit with the status of a signal that came during the exit."""
    if not _exit_signals:
        return
    with contextlib.suppress(Exception):
        sys.stderr.write("\ngent: interrupted\n")
        sys.stderr.flush()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    os._exit(128 + _exit_signals[0])


def guard_exit(*, active: bool) -> None:
    """Prepare (``active=False``, before the command runs: the exit handler that must run
    last is registered first) or start (``active=True``, after the command) the handling of
    stop signals during the process's exit; see the module docstring. Main thread only.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    if not active:
        atexit.unregister(_exit_with_signal)
        atexit.register(_exit_with_signal)
        return
    for number in STOP_SIGNALS:
        if signal.getsignal(number) is signal.SIG_IGN:
            continue
        with contextlib.suppress(ValueError, OSError):
            signal.signal(number, _noted_at_exit)

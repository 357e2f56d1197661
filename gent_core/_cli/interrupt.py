"""Running a command's coroutine so that Ctrl-C always stops it, within about a second.

SIGTERM and SIGHUP take the same path as Ctrl-C (:data:`~gent_core._cli.signals.STOP_SIGNALS`):
what is said here of Ctrl-C holds for them, and :func:`~gent_core._cli.signals.exit_status`
gives the exit status of the signal that stopped the command (143 for SIGTERM, 129 for SIGHUP).

:func:`asyncio.run` answers Ctrl-C by cancelling the main task, which ends the run only when
the event loop gets control back and every task lets its cancellation through. A tool that
swallows its cancellation, code that blocks the event loop (a slow check, a stuck call) or a
task that keeps the loop's shutdown waiting would make Ctrl-C do nothing. :func:`run_command`
runs the coroutine the way ``asyncio.run`` does, with two stages on SIGINT:

1. the first Ctrl-C cancels the main task, so ``finally`` blocks run (toolsets stop, the
   transcript is closed), and the event loop is woken up;
2. if the command has not ended :data:`INTERRUPT_GRACE` seconds later, or on a second Ctrl-C,
   :class:`KeyboardInterrupt` is raised in the main thread wherever it is (Python code, a
   pattern of :mod:`gent_core._regexes`, a sleep, a blocking read), and the tasks still
   pending are abandoned: the loop is closed without waiting for them (tool threads are
   daemons and never keep the process alive).

Either way the command gets :class:`KeyboardInterrupt` and returns
:data:`EXIT_INTERRUPTED` (130; 128 + the signal's number as the process's exit status) after one
line saying it was interrupted. When ``gent`` owns
the process (the console script, ``python -m gent_core``), :func:`leave_now` then ends it
without the interpreter's teardown of its modules, which alone can take half a second on a
busy machine: exit handlers run, buffers are flushed, then the process exits.
"""

from __future__ import annotations

import _thread
import asyncio
import atexit
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Coroutine
from typing import Any, NoReturn, TypeVar

from gent_core._cli.signals import EXIT_INTERRUPTED, STOP_SIGNALS, note_signal
from gent_core.tools._guard import force_stop

__all__ = [
    "EXIT_INTERRUPTED",
    "INTERRUPT_GRACE",
    "finish_loop",
    "leave_now",
    "run_command",
    "run_turn",
]

T = TypeVar("T")

INTERRUPT_GRACE = 0.5
"""Seconds a command has, after the first Ctrl-C, to end by cancellation before
:class:`KeyboardInterrupt` is raised wherever the main thread is."""


class _Interrupts:
    """The handler of the stop signals (Ctrl-C, SIGTERM, SIGHUP) of one command: cancel
    first, then raise.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, grace: float) -> None:
        self.loop = loop
        self.grace = grace
        self.task: asyncio.Task[Any] | None = None
        self.count = 0
        self.finished = threading.Event()
        self.escalation: threading.Thread | None = None

    def handle(self, signum: int, frame: object) -> None:
        if self.finished.is_set():
            return  # a late escalation, after the command ended
        if not self.count:  # the first signal is the one that stops the command
            note_signal(signum)
        self.count += 1
        task = self.task
        if self.count > 1 or task is None or task.done():
            raise KeyboardInterrupt
        task.cancel()
        with contextlib.suppress(RuntimeError):  # the loop is closed
            self.loop.call_soon_threadsafe(lambda: None)  # wake it up if it waits
        self.escalation = threading.Thread(
            target=self._escalate, name="gent-interrupt", daemon=True
        )
        self.escalation.start()

    def finish(self) -> None:
        """Mark the command ended, and wait until no escalation can still be sent: a signal
        the escalation sent is then pending or already handled (and ignored) by
        :meth:`handle`, never by the handler put back after the command.
        """
        self.finished.set()
        escalation = self.escalation
        if escalation is not None:
            # A second Ctrl-C can interrupt the first one's ``start()`` before the thread
            # reports it started: ``join`` then refuses it, and the thread, if it runs at
            # all, finds ``finished`` set and sends nothing.
            with contextlib.suppress(RuntimeError):
                escalation.join()

    def _escalate(self) -> None:
        """Interrupt the main thread unless the command ends within the grace."""
        if self.finished.wait(self.grace):
            return
        main = threading.main_thread().ident
        if hasattr(signal, "pthread_kill") and main is not None:
            # A real signal also interrupts a blocking call (sleep, select, read).
            signal.pthread_kill(main, signal.SIGINT)
        else:  # pragma: no cover - Windows
            _thread.interrupt_main()


def _pending(loop: asyncio.AbstractEventLoop) -> list[asyncio.Task[Any]]:
    return [task for task in asyncio.all_tasks(loop) if not task.done()]


def finish_loop(loop: asyncio.AbstractEventLoop) -> None:
    """What ``asyncio.run`` does after its coroutine: cancel the tasks left, wait for them,
    close async generators and the default executor.
    """
    tasks = _pending(loop)
    for task in tasks:
        task.cancel()
    if tasks:
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        for task in tasks:
            if not task.cancelled() and task.exception() is not None:
                loop.call_exception_handler(
                    {
                        "message": "unhandled exception during shutdown",
                        "exception": task.exception(),
                        "task": task,
                    }
                )
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.run_until_complete(loop.shutdown_default_executor())


def _abandon(loop: asyncio.AbstractEventLoop) -> None:
    """Stop the tasks left without running the loop again (after Ctrl-C).

    What they did is no longer anyone's concern: the loop's exception handler is silenced, so
    a task that ended with the ``KeyboardInterrupt`` ("exception was never retrieved") or is
    still pending ("destroyed but it is pending") adds nothing to the one line saying the
    command was interrupted. So is asyncio's own logger: a child process (an MCP server) that
    ends after the loop is closed would make its watcher warn "Loop ... that handles pid ... is
    closed" on the way out.
    """
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    loop.set_exception_handler(lambda loop, context: None)
    for task in _pending(loop):
        force_stop(task, quiet=True)


def _run_interruptible(
    loop: asyncio.AbstractEventLoop, main: Coroutine[Any, Any, T], grace: float
) -> T:
    """Run ``main`` as a task of ``loop`` with the two-stage SIGINT handler installed.

    Raises:
        KeyboardInterrupt: Ctrl-C came while it ran (its task is cancelled, or still pending
            when Ctrl-C had to be raised in the main thread).
    """
    interrupts = _Interrupts(loop, grace)
    previous = _install(interrupts.handle)
    try:
        task: asyncio.Task[T] = loop.create_task(main)
        interrupts.task = task
        try:
            result = loop.run_until_complete(task)
        except (Exception, asyncio.CancelledError) as error:  # what a cancellation became
            if interrupts.count:
                raise KeyboardInterrupt from error
            raise
        if interrupts.count:  # it ended by itself after Ctrl-C: still an interruption
            raise KeyboardInterrupt
        return result
    finally:
        interrupts.finish()
        # signal.signal first runs a signal that is still pending: ``handle`` ignores it now.
        for number, handler in previous.items():
            signal.signal(number, handler)


def _install(handler: Any) -> dict[int, Any]:
    """Set ``handler`` for every stop signal the process does not ignore (``nohup`` ignores
    SIGHUP; SIGINT is always handled, as before); return the previous handlers.
    """
    previous: dict[int, Any] = {}
    for number in STOP_SIGNALS:
        if number != signal.SIGINT and signal.getsignal(number) is signal.SIG_IGN:
            continue
        previous[number] = signal.signal(number, handler)
    return previous


def run_command(main: Coroutine[Any, Any, T], *, grace: float = INTERRUPT_GRACE) -> T:
    """Run ``main`` in a new event loop and return its result, as :func:`asyncio.run` does;
    Ctrl-C stops it within about ``grace`` seconds (see the module docstring).

    Outside the main thread (no signal handler can be set there) it is ``asyncio.run``.

    Raises:
        KeyboardInterrupt: The command was interrupted (exit with status 130).
    """
    if threading.current_thread() is not threading.main_thread():
        return asyncio.run(main)
    loop = asyncio.new_event_loop()
    try:
        asyncio.set_event_loop(loop)
        try:
            result = _run_interruptible(loop, main, grace)
        except KeyboardInterrupt:
            _abandon(loop)
            raise
        finish_loop(loop)
        return result
    finally:
        asyncio.set_event_loop(None)
        loop.close()


def run_turn(
    loop: asyncio.AbstractEventLoop,
    main: Coroutine[Any, Any, T],
    *,
    grace: float = INTERRUPT_GRACE,
) -> T:
    """Run ``main`` as one turn of a longer session in ``loop``, which stays open for the
    next turns (``gent chat``: the toolsets opened in it keep working).

    Ctrl-C stops the turn as :func:`run_command` stops a command, in two stages; then only
    the turn's own task is stopped (forced if it ignored its cancellation), the other tasks
    of the loop are kept.

    Raises:
        KeyboardInterrupt: The turn was interrupted; the session may go on.
    """
    if threading.current_thread() is not threading.main_thread():
        return loop.run_until_complete(main)
    tasks_before = set(asyncio.all_tasks(loop))
    try:
        return _run_interruptible(loop, main, grace)
    except KeyboardInterrupt:
        for task in asyncio.all_tasks(loop) - tasks_before:  # the turn's and its children
            force_stop(task)
        with contextlib.suppress(BaseException):  # let the stopped tasks finish their cleanup
            loop.run_until_complete(asyncio.sleep(0))
        raise


def leave_now(code: int) -> NoReturn:
    """End the process with ``code`` at once (after Ctrl-C, when ``gent`` owns the process):
    run the exit handlers and flush the logs and the standard streams, but skip the
    interpreter's teardown, and do not wait for threads still working (a tool thread, a
    model's generation) or for pending tasks.
    """
    with contextlib.suppress(Exception):
        logging.shutdown()
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_handlers is not None:
        with contextlib.suppress(Exception):
            run_exit_handlers()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)

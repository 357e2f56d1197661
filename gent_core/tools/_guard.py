"""The tool boundary: whatever a tool does becomes a result for that call, never the run's end.

The execution engine (:mod:`gent_core._execution`) runs every tool through these guards:

* :func:`guarded` runs a tool's coroutine so that *any* exception it raises — ``SystemExit``,
  a bare ``BaseException``, an exception group — comes back as a :class:`Raised` value
  instead of unwinding the event loop. Let through: ``KeyboardInterrupt`` (Ctrl-C still
  stops the run, except in a server — ``ExecutionContext.interrupt_stops`` false — where it
  is the call's error like any other), ``CancelledError`` (the task ends cancelled) and
  ``GeneratorExit`` (the coroutine is being closed: turning that into a value would make the
  coroutine "ignore" it, and asyncio would later resume a closed coroutine).
* :func:`abandon` stops a tool task after a timeout or a cancelled run. A task that swallows
  its ``CancelledError`` is given :data:`ABANDON_GRACE` seconds, then its coroutine is
  closed; one that even ignores that is detached from the event loop's task list, so it can
  never keep ``asyncio.run`` (and ``gent``) from exiting.
* :func:`crash_error` writes what a tool raised as a model-facing error, and
  :func:`checked_result` turns a malformed :class:`~gent_core.tools.result.ToolResult` into an
  error result naming what is wrong.

Sync tools run in daemon worker threads (:mod:`gent_core.tools._threads`), which never keep the
process alive either.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from gent_core.errors import Location, ToolExecutionError, describe_error
from gent_core.tools.result import ToolResult, result_problems

__all__ = [
    "ABANDON_GRACE",
    "Raised",
    "abandon",
    "checked_result",
    "crash_error",
    "force_stop",
    "guarded",
]

ABANDON_GRACE = 2.0
"""Seconds an abandoned tool task has to finish after it was cancelled (to run its cleanup)
before its coroutine is closed."""


@dataclass(frozen=True)
class Raised:
    """What a guarded tool raised instead of returning.

    Attributes:
        error: The exception.
    """

    error: BaseException


async def guarded(call: Awaitable[Any], *, interrupt_stops: bool = True) -> Any:
    """Await ``call``; return its value, or a :class:`Raised` for anything it raises.

    ``KeyboardInterrupt`` propagates (Ctrl-C stops the run) unless ``interrupt_stops`` is
    false (a server: it becomes a :class:`Raised` too); ``CancelledError`` always does (the
    task ends cancelled, as asyncio expects; the engine reports the call as cancelled), and so
    does ``GeneratorExit`` (the coroutine is being closed, see :func:`abandon`).
    """
    try:
        return await call
    except (asyncio.CancelledError, GeneratorExit):
        raise
    except KeyboardInterrupt as error:
        if interrupt_stops:
            raise
        return Raised(error)
    except BaseException as error:  # noqa: BLE001 - the tool boundary: anything becomes a result
        return Raised(error)


def _consume(task: asyncio.Future[Any]) -> None:
    """Retrieve an abandoned task's outcome so asyncio does not log it as never retrieved."""
    if not task.cancelled():
        with contextlib.suppress(BaseException):
            task.exception()


def _detach(task: asyncio.Task[Any]) -> None:
    """Remove ``task`` from the loop's task list, so shutting the loop down does not wait."""
    with contextlib.suppress(AttributeError):  # no "Task was destroyed but it is pending!"
        task._log_destroy_pending = False  # type: ignore[attr-defined]
    unregister = getattr(asyncio.tasks, "_unregister_task", None)
    if unregister is not None:
        with contextlib.suppress(Exception):
            unregister(task)


def force_stop(task: asyncio.Task[Any], *, quiet: bool = False) -> None:
    """Stop a task now, whatever it does with cancellation.

    A task running :func:`guarded` has the coroutine it guards closed (``GeneratorExit`` at
    its await point, so its ``finally`` blocks run) and is woken up: ``guarded`` then ends
    with a :class:`Raised` value, and the task finishes normally. Closing the task's own
    coroutine instead would leave asyncio resuming a closed coroutine ("cannot reuse already
    awaited coroutine"). A coroutine that ignores ``GeneratorExit`` too is detached from the
    loop's task list, so it never keeps the loop from closing.

    Args:
        task: The task.
        quiet: The loop will not run again (it is closed after Ctrl-C): the task's own
            coroutine is closed, and the task is kept from logging "Task was destroyed but it
            is pending!".
    """
    if task.done():
        return
    coroutine: Any = task.get_coro()
    inner = None if quiet else getattr(coroutine, "cr_await", None)
    guarded_call = getattr(coroutine, "cr_code", None) is guarded.__code__
    target = inner if guarded_call and inspect.iscoroutine(inner) else coroutine
    if quiet:
        with contextlib.suppress(AttributeError):
            task._log_destroy_pending = False  # type: ignore[attr-defined]
    try:
        target.close()  # GeneratorExit at the await point: the finally blocks run
    except RuntimeError:  # it ignored GeneratorExit
        _detach(task)
        return
    except Exception:  # noqa: BLE001 - its cleanup failed: it is closed all the same
        pass
    if target is not coroutine:
        task.cancel()  # wake guarded(): it finds its call closed and returns


def abandon(task: asyncio.Task[Any], grace: float = ABANDON_GRACE) -> None:
    """Cancel ``task`` and make sure it can never keep the event loop (or the process) alive.

    The task gets ``grace`` seconds to end after the cancellation; then its coroutine is
    closed, and if it ignores that too, it is detached from the loop's task list.
    """
    if task.done():
        _consume(task)
        return
    task.cancel()
    task.add_done_callback(_consume)
    with contextlib.suppress(RuntimeError):  # the loop is closing
        task.get_loop().call_later(grace, force_stop, task)


def crash_error(tool: str, error: BaseException) -> ToolExecutionError:
    """The error result's error for what ``tool`` raised (any exception, never a traceback)."""
    if isinstance(error, SystemExit):
        detail = f" with code {error.code!r}" if error.code is not None else ""
        failure = ToolExecutionError(
            f"tool {tool!r} raised SystemExit{detail}",
            location=Location(tool=tool),
            model_message=(
                f"Tool {tool!r} failed: it tried to exit the program (SystemExit{detail}). "
                "The call was stopped; nothing else was affected."
            ),
        )
    else:
        shown = describe_error(error)
        failure = ToolExecutionError(
            f"tool {tool!r} raised {shown}",
            location=Location(tool=tool),
            model_message=f"Tool {tool!r} failed: {shown}",
        )
    failure.__cause__ = error
    return failure


def checked_result(value: Any, tool: str) -> ToolResult:
    """``value`` as a :class:`ToolResult`; a malformed one becomes an error result naming
    every problem (``media must be a list of ImagePart objects, not None``).
    """
    result = ToolResult.wrap(value)
    try:
        problems = result_problems(result)
    except Exception as broken:  # noqa: BLE001 - a result whose attributes raise is malformed
        problems = [f"reading it failed ({describe_error(broken)})"]
    if not problems:
        return result
    listed = "; ".join(problems)
    malformed = ToolExecutionError(
        f"tool {tool!r} returned a malformed ToolResult: {listed}",
        location=Location(tool=tool),
        model_message=f"Tool {tool!r} failed: it returned a malformed result ({listed}).",
    )
    return ToolResult(output=None, status="error", error=malformed)

"""The shared engine that runs parsed tool calls and writes the observation.

Every tool chain executes through :func:`execute_calls`, so every chain behaves the same:

* calls run **concurrently** (``asyncio.gather``); results keep the call order;
* for each call the ``gent_before_tool_call`` hook may deny it (an error result giving the
  reason) or replace it; the tool is looked up (:class:`~gent_core.errors.UnknownToolError`
  lists the available ones); arguments are validated
  (:class:`~gent_core.errors.InvalidToolArgumentsError`) in a worker thread, so a slow schema
  check never blocks the event loop, then the tool runs; both within the tool's timeout
  (:class:`~gent_core.errors.ToolTimeoutError`) and the run's cancellation; an exception
  becomes :class:`~gent_core.errors.ToolExecutionError` with its type and message (never a
  traceback); the ``gent_after_tool_call`` hook may replace the result;
* clipboard files must resolve inside the working directory
  (:func:`gent_core._observation.check_clipboard_files`), else the call is an error;
* each result is rendered by the chain (:meth:`~gent_core.toolchain.ToolChain.format_output`),
  cut to ``limits.max_tool_output_chars``, put in a section named after the tool and wrapped
  in the format's observation. Errors read ``Error: <model message>`` in the observation, cut
  to the same bound, and stay available whole in
  :attr:`~gent_core.toolchain.ToolChainResult.errors`.

**The tool boundary** (:mod:`gent_core.tools._guard`): *anything* a tool (or a hook, a
validator, a formatter) does becomes an error result for that call: ``SystemExit``, a bare
``BaseException``, a malformed :class:`~gent_core.tools.result.ToolResult`, a task that
swallows its cancellation after a timeout (it is closed after a grace period, and can never
keep the process from exiting). Only ``KeyboardInterrupt`` stops the run (unless
``context.interrupt_stops`` is false: a server turns it into the call's error too).

**Bounds.** An action holds at most ``limits.max_calls_per_action`` calls
(:class:`TooManyCallsError`: nothing runs, the model is told); sync tools share a bounded pool
of worker threads (:mod:`gent_core.tools._threads`), and calls beyond it wait their turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gent_core._observation import (
    check_clipboard_files,
    error_text,
    section_name_for,
    truncate_output,
)
from gent_core._plugins.decisions import ToolCallDecision
from gent_core._serialize import ValueBoundsError, check_value
from gent_core.errors import (
    GentError,
    InvalidToolArgumentsError,
    Location,
    ParseError,
    ToolError,
    ToolExecutionError,
    ToolTimeoutError,
    UnknownToolError,
    describe_error,
)
from gent_core.sections import FormattedSection
from gent_core.toolchain import ToolCall, ToolChainResult
from gent_core.tools._guard import Raised, abandon, checked_result, crash_error, guarded
from gent_core.tools._threads import run_sync, tool_threads_saturated
from gent_core.tools.result import ToolResult

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext, Limits
    from gent_core.formats import TextFormat
    from gent_core.toolchain import ToolChain
    from gent_core.tools.base import Tool

__all__ = [
    "ToolCallDeniedError",
    "ToolCancelledError",
    "TooManyCallsError",
    "check_call_count",
    "execute_action",
    "execute_calls",
]


class ToolCallDeniedError(ToolError):
    """A ``gent_before_tool_call`` hook denied the call (or failed while deciding)."""


class ToolCancelledError(ToolError):
    """The run was cancelled before or while the tool ran."""


class TooManyCallsError(ParseError):
    """An action holds more calls than ``limits.max_calls_per_action``; none of them ran."""


def check_call_count(calls: Sequence[ToolCall], limits: Limits) -> None:
    """Refuse an action with more calls than ``limits.max_calls_per_action``.

    Raises:
        TooManyCallsError: Saying how many calls there were and how many are accepted.
    """
    limit = limits.max_calls_per_action
    if len(calls) <= limit:
        return
    raise TooManyCallsError(
        f"the action holds {len(calls)} tool calls; at most {limit} are accepted per action",
        model_message=(
            f"Your action holds {len(calls)} tool calls, but at most {limit} are accepted in "
            f"one action, so none of them was run. Write at most {limit} calls, and the rest "
            "in the next steps."
        ),
    )


@dataclass
class _Outcome:
    call: ToolCall
    result: ToolResult
    text: str


def _failure(error: GentError) -> ToolResult:
    return ToolResult(output=None, status="error", error=error)


class _Runner:
    """Runs the calls of one action section against ``chain`` in ``context``."""

    def __init__(self, chain: ToolChain, context: ExecutionContext) -> None:
        self.chain = chain
        self.context = context

    # ------------------------------------------------------------------ hooks

    def _before(self, call: ToolCall, tool: Tool | None) -> tuple[ToolCall, ToolResult | None]:
        """Fire ``gent_before_tool_call``; return the call to run, or an error result."""
        manager = self.context.plugin_manager
        if manager is None:
            return call, None
        try:
            decision: object = manager.hook.gent_before_tool_call(
                call=call, tool=tool, context=self.context
            )
        except Exception as error:  # noqa: BLE001 - a failing policy blocks the call
            return call, _failure(
                ToolCallDeniedError(
                    f"gent_before_tool_call failed for {call.tool!r}: {describe_error(error)}",
                    location=Location(tool=call.tool),
                    model_message=(
                        f"The call to {call.tool!r} was not run: checking it failed "
                        f"({describe_error(error)})."
                    ),
                )
            )
        if decision is None:
            return call, None
        if not isinstance(decision, ToolCallDecision):
            return call, _failure(
                ToolCallDeniedError(
                    f"gent_before_tool_call returned {decision!r}, not a ToolCallDecision",
                    location=Location(tool=call.tool),
                    model_message=f"The call to {call.tool!r} was not run: checking it failed.",
                )
            )
        if decision.action == "deny":
            reason = decision.reason or "denied by policy"
            return call, _failure(
                ToolCallDeniedError(
                    f"call to {call.tool!r} denied: {reason}",
                    location=Location(tool=call.tool),
                    model_message=f"The call to {call.tool!r} was denied: {reason}",
                )
            )
        if decision.call is not None:
            replacement = decision.call
            return dataclasses.replace(replacement, id=replacement.id or call.id), None
        return call, None

    def _after(self, call: ToolCall, result: ToolResult) -> ToolResult:
        manager = self.context.plugin_manager
        if manager is None:
            return result
        try:
            replaced: ToolResult | None = manager.hook.gent_after_tool_call(
                call=call, result=result, context=self.context
            )
        except Exception as error:  # noqa: BLE001 - reported to the model, never raised
            return _failure(
                ToolExecutionError(
                    f"gent_after_tool_call failed for {call.tool!r}: {describe_error(error)}",
                    location=Location(tool=call.tool),
                    model_message=(
                        f"The result of {call.tool!r} was withheld: processing it failed "
                        f"({describe_error(error)})."
                    ),
                )
            )
        return result if replaced is None else checked_result(replaced, call.tool)

    # ------------------------------------------------------------------ running

    def _cancelled_error(self, name: str) -> ToolCancelledError:
        reason = self.context.cancellation.reason or "cancelled"
        return ToolCancelledError(
            f"tool {name!r} cancelled: {reason}",
            location=Location(tool=name),
            model_message=f"Tool {name!r} was cancelled ({reason}).",
        )

    def _validate(self, tool: Tool, call: ToolCall) -> dict[str, Any] | ToolResult:
        try:
            return tool.validate_arguments(call.args)
        except GentError as error:
            return _failure(error)
        except Exception as error:  # noqa: BLE001 - a validator bug is still a bad-arguments error
            return _failure(
                InvalidToolArgumentsError(
                    f"invalid arguments for {tool.name!r}: {describe_error(error)}",
                    location=Location(tool=tool.name),
                    model_message=f"Invalid arguments for tool {tool.name!r}: {error}",
                )
            )

    async def _wait(self, task: asyncio.Task[Any], timeout: float) -> str | None:
        """Wait for ``task``; stop it at the timeout or when the run is cancelled.

        Nothing polls: the task's completion, a timer and the cancellation token each settle
        one waiter, whichever comes first.

        Returns:
            ``None`` when the task finished, else ``"timeout"`` or ``"cancelled"`` (the task
            is then abandoned: see :func:`gent_core.tools._guard.abandon`).
        """
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[str | None] = loop.create_future()

        def settle(reason: str | None) -> None:
            if not waiter.done():
                waiter.set_result(reason)

        def cancelled() -> None:  # may run in another thread
            with contextlib.suppress(RuntimeError):  # the loop is already closed
                loop.call_soon_threadsafe(settle, "cancelled")

        task.add_done_callback(lambda _: settle(None))
        timer = loop.call_later(timeout, settle, "timeout")
        unsubscribe = self.context.cancellation.on_cancel(cancelled)
        try:
            stopped = await waiter
        except asyncio.CancelledError:
            abandon(task)
            raise
        finally:
            timer.cancel()
            unsubscribe()
        if stopped is not None and not task.done():
            abandon(task)
        elif stopped is not None:
            stopped = None  # finished in the same loop iteration: keep the result
        return stopped

    async def _checked_call(self, tool: Tool, call: ToolCall) -> ToolResult:
        """Check the arguments in a worker thread (a schema's patterns, a validator's own code
        may be slow: the event loop keeps going), then run the tool with them.
        """
        arguments = await run_sync(self._validate, tool, call)
        if isinstance(arguments, ToolResult):
            return arguments
        return await tool.call(arguments, self.context)

    async def _invoke(self, tool: Tool, call: ToolCall) -> ToolResult:
        if self.context.cancellation.cancelled:
            return _failure(self._cancelled_error(tool.name))
        timeout = tool.timeout if tool.timeout is not None else self.context.limits.tool_timeout
        # The argument check runs inside the timed task: the timeout and the run's
        # cancellation cover it as they cover the tool.
        task = asyncio.ensure_future(
            guarded(self._checked_call(tool, call), interrupt_stops=self.context.interrupt_stops)
        )
        stopped = await self._wait(task, timeout)
        if stopped == "cancelled":
            return _failure(self._cancelled_error(tool.name))
        if stopped == "timeout":
            busy = (
                " (every tool thread was busy, so it may not have started)"
                if tool_threads_saturated()
                else ""
            )
            return _failure(
                ToolTimeoutError(
                    f"tool {tool.name!r} did not finish within {timeout:g} s{busy}",
                    location=Location(tool=tool.name),
                    model_message=f"Tool {tool.name!r} did not finish within {timeout:g} s{busy}.",
                )
            )
        try:
            value = task.result()
        except asyncio.CancelledError:
            return _failure(self._cancelled_error(tool.name))
        if isinstance(value, Raised):
            if isinstance(value.error, GentError):
                return _failure(value.error)
            return _failure(crash_error(tool.name, value.error))
        return _normalized(checked_result(value, tool.name), tool.name)

    def _error_text(self, error: GentError) -> str:
        """The observation text of a failed call, cut to ``limits.max_tool_output_chars`` as
        an output is (a tool's exception or error result may hold megabytes).
        """
        return truncate_output(error_text(error), self.context.limits.max_tool_output_chars)

    def _render(self, call: ToolCall, result: ToolResult) -> tuple[ToolResult, str]:
        if not result.ok:
            assert result.error is not None  # ensured by _normalized
            return result, self._error_text(result.error)
        try:
            check_value(result.output, allow_non_finite=True, convert=True, name="output")
        except ValueBoundsError as error:
            problem = ToolExecutionError(
                f"output of {call.tool!r} could not be written: {error.problem}",
                location=Location(tool=call.tool),
                model_message=f"Tool {call.tool!r} returned output that could not be written "
                f"as text ({error.problem}).",
            )
            return _failure(problem), self._error_text(problem)
        try:
            text = self.chain.format_output(result.output)
        except Exception as error:  # noqa: BLE001 - unformattable output is the tool's error
            problem = ToolExecutionError(
                f"output of {call.tool!r} could not be formatted: {describe_error(error)}",
                location=Location(tool=call.tool),
                model_message=(
                    f"Tool {call.tool!r} returned output that could not be written as "
                    f"text ({describe_error(error)})."
                ),
            )
            return _failure(problem), self._error_text(problem)
        return result, truncate_output(text, self.context.limits.max_tool_output_chars)

    async def run(self, call: ToolCall) -> _Outcome:
        """Run one call through hooks, lookup, validation, the tool and formatting.

        Whatever goes wrong on the way (a hook, a validator or a formatter raising anything
        but ``KeyboardInterrupt``, and that too when ``context.interrupt_stops`` is false)
        becomes an error result for this call.
        """
        try:
            return await self._run(call)
        except asyncio.CancelledError:
            raise
        except KeyboardInterrupt as error:
            if self.context.interrupt_stops:
                raise
            failure = crash_error(call.tool, error)
            return _Outcome(call, _failure(failure), self._error_text(failure))
        except BaseException as error:  # noqa: BLE001 - the tool boundary
            failure = crash_error(call.tool, error)
            return _Outcome(call, _failure(failure), self._error_text(failure))

    async def _run(self, call: ToolCall) -> _Outcome:
        call, denied = self._before(call, self.chain.get_tool(call.tool))
        tool = self.chain.get_tool(call.tool)
        if denied is not None:
            result = denied
        elif tool is None:
            result = _failure(UnknownToolError(call.tool, [t.name for t in self.chain.tools]))
        else:
            result = await self._invoke(tool, call)
        result = _normalized(self._after(call, result), call.tool)
        if result.ok and result.clipboard_files:
            result = check_clipboard_files(result, self.context, call.tool)
        result, text = self._render(call, result)
        return _Outcome(call, result, text)


def _normalized(result: ToolResult, name: str) -> ToolResult:
    """Make sure an error result carries an error object."""
    if result.ok or result.error is not None:
        return result
    message = str(result.output) if result.output is not None else "the tool reported an error"
    error = ToolExecutionError(
        f"tool {name!r} reported an error: {message}",
        location=Location(tool=name),
        model_message=f"Tool {name!r} failed: {message}",
    )
    return dataclasses.replace(result, error=error)


async def execute_calls(
    chain: ToolChain,
    calls: Sequence[ToolCall],
    text_format: TextFormat,
    context: ExecutionContext,
) -> ToolChainResult:
    """Run ``calls`` concurrently with ``chain``'s tools and format the observation.

    Args:
        chain: The tool chain: its tools, and how it renders raw outputs.
        calls: The parsed calls, in order.
        text_format: The format writing the tool sections and the observation wrapper.
        context: Working directory, limits, cancellation and plugin hooks of the run.

    Returns:
        The observation text (``""`` without calls), media in call order, and one result and
        one error entry per call. Per-call errors are results, never raised.

    Raises:
        TooManyCallsError: More calls than ``context.limits.max_calls_per_action`` (none ran).
    """
    if not calls:
        return ToolChainResult()
    check_call_count(calls, context.limits)
    runner = _Runner(chain, context)
    if len(calls) == 1:
        outcomes = [await runner.run(calls[0])]
    else:
        outcomes = list(await asyncio.gather(*(runner.run(call) for call in calls)))
    sections = [
        FormattedSection(section_name_for(outcome.call.tool), outcome.text) for outcome in outcomes
    ]
    results = [outcome.result for outcome in outcomes]
    return ToolChainResult(
        text=text_format.format_observation(sections),
        media=[part for result in results for part in result.media],
        calls=list(calls),
        results=results,
        errors=[None if result.ok else result.error for result in results],
    )


async def execute_action(
    chain: ToolChain,
    content: str,
    text_format: TextFormat,
    context: ExecutionContext,
) -> ToolChainResult:
    """Read the calls of an action section with ``chain`` and run them
    (:func:`execute_calls`): what the agent does with the action the model wrote.

    Per-call errors (unknown tool, invalid arguments, exception, timeout, a denial by a
    hook, a clipboard file outside the working directory) become error results and
    observation text; they are not raised.

    Args:
        chain: The tool chain that reads the section and renders the results.
        content: The section's text as written.
        text_format: The format writing the tool sections and the observation wrapper.
        context: Working directory, limits, cancellation and plugin hooks of the run.

    Raises:
        ParseError: When ``content`` cannot be read as calls at all (nothing runs).
        TooManyCallsError: More calls than ``context.limits.max_calls_per_action``.
    """
    return await execute_calls(chain, chain.parse(content), text_format, context)

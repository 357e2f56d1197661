"""One run of the ReAct loop: the state of a run and the rules of each step.

Rules (from the seeds' Go library):

* an output with an action runs the action; an answer next to it is ignored (and the model
  is told);
* an output with neither, with an empty action and no answer, with no recognised section, or
  cut off inside a section, gets feedback saying what was expected, quoting the output briefly;
* an output the back end reports as cut off by its token limit (finish reason ``length`` or an
  equivalent), or that the agent stopped at one of its own bounds (``limits.max_output_chars``,
  ``limits.model_timeout``: :mod:`gent_core._agent.streaming`), is never acted on: no call
  runs, no answer is taken, the model is told;
* every error becomes feedback and the model retries; limits stop the run cleanly: max
  steps, the model calls of the run (every step's and every repair's:
  ``limits.max_model_calls``), consecutive unusable outputs, consecutive steps whose tool
  calls all failed, the same call failing ``limits.max_repeated_failures`` times;
* a call that repeats an earlier call of the run with the same result gets a note after the
  observation naming that result and saying to use it (:mod:`gent_core._agent.repeats`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gent_core._agent import feedback
from gent_core._agent.clipboard import clipboard_records, render_clipboard
from gent_core._agent.hooks import fire_hook
from gent_core._agent.protocol import RunAgent
from gent_core._agent.repair import CallRepair
from gent_core._agent.repeats import (
    find_repeats,
    repeated_failure,
    repeated_failure_message,
)
from gent_core._agent.streaming import (
    CUT_OFF_FINISH_REASONS,
    OUTPUT_LIMIT,
    TIME_LIMIT,
    ModelOutput,
    cut_off_by_back_end,
    stream_model_output,
)
from gent_core._execution import check_call_count, execute_calls
from gent_core._observation import truncate_output
from gent_core._replay import step_messages
from gent_core._serialize import ValueBoundsError, check_value, to_json_data
from gent_core.context import ExecutionContext
from gent_core.errors import (
    GentError,
    HookError,
    ModelError,
    NoSectionsFoundError,
    ParseError,
    TruncatedOutputError,
    describe_error,
)
from gent_core.events import (
    AgentEvent,
    AnswerReady,
    FeedbackSent,
    StepStarted,
    ToolCallFinished,
    ToolCallsStarted,
)
from gent_core.messages import ContentPart, ImagePart, Message, TextPart
from gent_core.model import ModelRequest, ModelResponse
from gent_core.records import (
    ModelCallStats,
    RunResult,
    RunStats,
    StepRecord,
    StopReason,
    ToolCallRecord,
    recorded_output,
)
from gent_core.sections import FormattedSection, ParseResult
from gent_core.toolchain import ToolCall, ToolChainResult

if TYPE_CHECKING:
    from gent_core.toolchain import ToolChain

__all__ = [
    "CUT_OFF_FINISH_REASONS",
    "AgentRun",
    "RunAgent",
    "cut_off_by_back_end",
]


def _unreadable(
    section: str, component: object, error: Exception, what: str | None = None
) -> _Feedback:
    """Feedback for a component (a tool chain, a termination) that failed on the model's text:
    a plugin bug, reported with its class and the exception, that must not end the run.
    """
    kind = type(component).__name__
    detail = what or describe_error(error)
    failure = ParseError(
        f"{kind}.parse failed on the {section} section: {describe_error(error)}",
        model_message=feedback.unreadable_section(section, kind, detail),
    )
    failure.__cause__ = error
    return _Feedback(failure.model_message, failure)


class _Feedback(Exception):
    """Internal: the output cannot be used; ``message`` goes back to the model."""

    def __init__(self, message: str, error: GentError | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.error = error


class AgentRun:
    """The mutable state of one run; :meth:`run` drives the steps.

    Args:
        agent: The agent (its parts and settings).
        task: The task.
        context: The execution context (working directory, clipboard, limits...).
        emit: Receives every event.
        history: Steps of an earlier, interrupted run to continue from.
        conversation: Earlier messages placed between the system prompt and the task.
    """

    def __init__(
        self,
        agent: RunAgent,
        task: str,
        context: ExecutionContext,
        emit: Callable[[AgentEvent], None],
        history: list[StepRecord] | None = None,
        conversation: list[Message] | None = None,
    ) -> None:
        self.agent = agent
        self.task = task
        self.context = context
        self.emit = emit
        self.steps: list[StepRecord] = list(history or [])
        self.stats = RunStats()
        self.messages: list[Message] = [
            Message.system(agent.system_prompt()),
            *(conversation or []),
            Message.user(task),
        ]
        self.format_errors = 0
        self.tool_errors = 0
        self.stopping_tools: list[str] = []
        """Tools whose results asked to stop the run after the current step."""
        self.repair = CallRepair(
            agent, context, self.messages, self.stats, emit, self._fire, self.model_calls_left
        )
        for step in self.steps:
            self._replay(step)
        self._replayed_calls = sum(1 + len(step.repairs) for step in self.steps)
        """Model calls the replayed steps made (each step's and its repairs')."""

    # ------------------------------------------------------------------ history

    def _replay(self, step: StepRecord) -> None:
        """Rebuild messages and counters from a completed step of an earlier run."""
        self.messages.extend(step_messages(step))
        self._count(step)
        self.stats.steps += 1
        for call in step.calls:
            self.stats.tool_calls[call.tool] += 1
            if call.status == "error":
                self.stats.tool_errors[call.tool] += 1

    def _count(self, step: StepRecord) -> None:
        if step.outcome == "feedback":
            self.format_errors += 1
        elif step.outcome == "action":
            self.format_errors = 0
            self.tool_errors = self.tool_errors + 1 if step.all_calls_failed else 0

    def model_calls_left(self) -> int:
        """Model calls the run may still make (``limits.max_model_calls``): the budget less
        every call made, replayed steps' and repairs' included.
        """
        made = self._replayed_calls + len(self.stats.model_calls)
        return self.context.limits.model_call_budget() - made

    # ------------------------------------------------------------------ the loop

    async def run(self) -> RunResult:
        """Run steps until an answer or a limit; return the result.

        The run's hooks fire here: ``gent_run_started`` first, ``gent_step_finished`` after
        each step, ``gent_run_finished`` with the result (also, with the stop reason
        ``cancelled``, when a ``KeyboardInterrupt`` or the task's cancellation interrupts
        the run, before the interruption goes on).
        """
        started = time.perf_counter()
        try:
            result = await self._run_steps()
        except (KeyboardInterrupt, asyncio.CancelledError):
            # _run_steps adds its time when it returns; an interrupted run has run too.
            self.stats.total_seconds += time.perf_counter() - started
            interrupted = RunResult(
                None,
                "cancelled",
                "the run was interrupted",
                self.steps,
                self.stats,
                self.task,
                interrupted=True,
            )
            with contextlib.suppress(HookError):
                self._fire("gent_run_finished", result=interrupted)
            raise
        try:
            self._fire("gent_run_finished", result=result)
        except HookError as error:
            return RunResult(None, "plugin_error", str(error), self.steps, self.stats, self.task)
        return result

    async def _run_steps(self) -> RunResult:
        started = time.perf_counter()
        limits = self.context.limits
        answer: Any = None
        reason: StopReason = "max_steps"
        message = f"the run reached its limit of {limits.max_steps} steps without an answer"
        refused = self._start()
        if refused is not None:
            reason, message = "plugin_error", str(refused)
        while refused is None and len(self.steps) < limits.max_steps:
            if self.context.cancellation.cancelled:
                reason, message = (
                    "cancelled",
                    f"the run was cancelled: {self.context.cancellation.reason}",
                )
                break
            if self.model_calls_left() <= 0:
                reason, message = "max_model_calls", self._budget_spent()
                break
            try:
                record = await self._step(len(self.steps) + 1)
            except ModelError as error:
                reason, message = "model_error", str(error)
                break
            except HookError as error:
                reason, message = "plugin_error", str(error)
                break
            self.steps.append(record)
            self._count(record)
            self.stats.steps += 1
            try:
                self._fire("gent_step_finished", record=record)
            except HookError as error:
                reason, message = "plugin_error", str(error)
                break
            stop = self.stop_reason(record)
            if stop is not None:
                reason, message = stop
                if reason == "answer":
                    answer = record.answer_value
                break
        self.stats.total_seconds += time.perf_counter() - started
        return RunResult(answer, reason, message, self.steps, self.stats, self.task)

    def _budget_spent(self) -> str:
        """Why the run stopped at its model-call budget, for people."""
        budget = self.context.limits.model_call_budget()
        repairs = sum(len(step.repairs) for step in self.steps)
        return (
            f"the run made its limit of {budget} model calls without an answer "
            f"({len(self.steps)} steps and {repairs} repairs; limits.max_model_calls)"
        )

    def stop_reason(self, record: StepRecord) -> tuple[StopReason, str] | None:
        """Whether the run stops after the step ``record`` (just counted), and why: it
        answered, a tool asked to stop, or a limit of consecutive errors was reached. Pure:
        it reads the counters and changes nothing.
        """
        limits = self.context.limits
        if record.outcome == "answer":
            return "answer", "the model answered"
        if self.stopping_tools:
            names = ", ".join(dict.fromkeys(self.stopping_tools))
            return "tool_stop", (
                f"the run stopped after step {record.index}: {names} asked to stop it "
                "(its calls are recorded in that step)"
            )
        earlier = [step for step in self.steps if step is not record]
        repeated = repeated_failure(earlier, record, limits.max_repeated_failures)
        if repeated is not None:
            call, times = repeated
            return "repeated_failure", repeated_failure_message(
                call, times, limits.max_repeated_failures
            )
        if self.format_errors >= limits.max_consecutive_format_errors:
            return "format_errors", (
                f"{self.format_errors} unusable outputs in a row "
                f"(limit {limits.max_consecutive_format_errors}); last problem: "
                f"{record.feedback}"
            )
        if self.tool_errors >= limits.max_consecutive_tool_errors:
            return "tool_errors", (
                f"{self.tool_errors} steps in a row whose tool calls all failed "
                f"(limit {limits.max_consecutive_tool_errors})"
            )
        return None

    async def _step(self, index: int) -> StepRecord:
        self.emit(StepStarted(index))
        output = await self._call_model(index)
        record = StepRecord(index=index, output=output.text, outcome="feedback")
        record.model = ModelCallStats(
            output.usage.input_tokens,
            output.usage.output_tokens,
            output.seconds,
            output.finish_reason,
        )
        self.stats.model_calls.append(record.model)
        self.messages.append(Message.assistant(record.output))
        followup: list[ContentPart] = []
        try:
            parsed = self._parse(record, output)
            followup = await self._act(record, parsed)
        except _Feedback as feedback:
            record.outcome = "feedback"
            record.feedback = feedback.message
            record.error_kind = type(feedback.error).__name__ if feedback.error else None
            self.emit(FeedbackSent(index, feedback.message, feedback.error))
            text = self.agent.format.format_observation(
                [FormattedSection("error", feedback.message)]
            )
            followup = [TextPart(text)]
        if record.outcome != "answer":
            await self._send_followup(record, followup)
        record.clipboard = clipboard_records(self.context.clipboard)
        return record

    # ------------------------------------------------------------------ hooks

    def _start(self) -> HookError | None:
        """Fire ``gent_run_started``; its failure (which stops the run) or ``None``."""
        try:
            self._fire("gent_run_started", task=self.task, model=self.agent.model)
        except HookError as error:
            return error
        return None

    def _fire(self, hook: str, **arguments: Any) -> None:
        """Call a lifecycle hook of every plugin; a hook that raises becomes a HookError."""
        fire_hook(self.context, hook, **arguments)

    # ------------------------------------------------------------------ model

    def model_request(self) -> ModelRequest:
        """The request of the next model call: the conversation so far (after the
        ``gent_transform_messages`` hooks), the stop sequences and the output structure.

        ``gent describe --prompt`` shows what the back end makes of the first one.
        """
        agent = self.agent
        messages = list(self.messages)
        self._fire("gent_transform_messages", messages=messages)
        return ModelRequest(
            messages=messages,
            stop=agent.format.stop_sequences(agent.closing_sections()),
            max_tokens=agent.max_tokens,
            temperature=agent.temperature,
            structure=agent.structure(),
        )

    async def _call_model(self, index: int) -> ModelOutput:
        agent = self.agent
        request = self.model_request()
        self._fire("gent_before_model_call", request=request)
        try:
            output = await stream_model_output(
                agent.model,
                request,
                agent.format,
                agent.sections(),
                set(agent.closing_sections()),
                self.emit,
                index,
                self.context.limits,
            )
        except GentError as error:
            self._fire("gent_model_call_failed", request=request, error=error)
            raise
        self.stats.model_seconds += output.seconds
        response = ModelResponse(output.text, output.usage, output.finish_reason)
        self._fire("gent_after_model_call", request=request, response=response)
        return output

    # ------------------------------------------------------------------ parse

    def _parse(self, record: StepRecord, output: ModelOutput) -> ParseResult:
        """The parse of the output (made while it streamed), or feedback when it is unusable.

        An output the back end reports as cut off (:func:`cut_off_by_back_end`) is never
        used, whatever the format and whatever the parser made of it: a section that looks
        closed (a Markdown section ends with the text) may still hold half a call.
        """
        agent = self.agent
        bound = self._bound_reached(output)
        if bound is not None or cut_off_by_back_end(output.finish_reason):
            expected = agent.expected_sections_text()
            open_section = output.parsed.truncated if output.parsed is not None else None
            where = f" inside the {open_section.name} section" if open_section else ""
            what, why = bound or (
                "the token limit",
                f"the model output was cut off (finish reason {output.finish_reason!r})",
            )
            message = feedback.cut_off(where, what, record.output, expected)
            raise _Feedback(message, TruncatedOutputError(why, model_message=message))
        error = output.parse_error
        if isinstance(error, NoSectionsFoundError):
            raise _Feedback(feedback.no_sections(error.model_message, record.output), error)
        if error is not None:
            raise _Feedback(error.model_message, error)
        assert output.parsed is not None  # no error means a result
        truncated = output.parsed.truncated
        if truncated is not None and truncated.name in agent.closing_sections():
            raise _Feedback(feedback.section_cut_off(truncated.name, truncated.content))
        return output.parsed

    def _bound_reached(self, output: ModelOutput) -> tuple[str, str] | None:
        """For an output the agent stopped at one of its bounds: what the model is told it
        reached, and the error for people (naming the setting); else ``None``.
        """
        limits = self.context.limits
        if output.finish_reason == OUTPUT_LIMIT:
            size = f"{limits.max_output_chars:,} characters"
            return (
                feedback.output_limit_reached(size),
                f"the model output was stopped at {size} (limits.max_output_chars)",
            )
        if output.finish_reason == TIME_LIMIT:
            assert limits.model_timeout is not None  # the only way to this finish reason
            seconds = f"{limits.model_timeout:g} s"
            return (
                feedback.time_limit_reached(seconds),
                f"the model output was stopped after {seconds} (timeouts.model)",
            )
        return None

    # ------------------------------------------------------------------ act

    async def _act(self, record: StepRecord, parsed: ParseResult) -> list[ContentPart]:
        agent = self.agent
        action_name = agent.toolchain.name if agent.toolchain is not None else None
        # Components parse the text as written (a YAML block keeps its final line end).
        actions = (
            [text for text in parsed.untrimmed(action_name) if text.strip()] if action_name else []
        )
        answers = parsed.untrimmed(agent.termination.name)
        if actions:
            assert action_name is not None  # only a tool chain's section is an action
            if answers:
                record.notes.append(feedback.answer_ignored(agent.termination.name, action_name))
            if len(actions) > 1:
                record.notes.append(feedback.only_first_action(action_name))
            return await self._run_action(record, actions[0])
        if answers:
            started = time.perf_counter()
            try:
                value = agent.termination.parse(answers[0])
            except GentError as error:
                raise _Feedback(error.model_message, error) from error
            except Exception as error:  # a termination bug on this text: the run goes on
                raise _unreadable(agent.termination.name, agent.termination, error) from error
            finally:
                self.stats.parse_seconds += time.perf_counter() - started
            if value is not None:
                try:
                    check_value(value, convert=True, name="answer")
                except ValueBoundsError as error:
                    raise _Feedback(
                        feedback.answer_out_of_bounds(agent.termination.name, error.problem)
                    ) from None
                record.outcome = "answer"
                record.answer_value = value
                record.answer = to_json_data(value)
                self.emit(AnswerReady(record.index, value))
                return []
        expected = agent.expected_sections_text()
        example = agent.format.example(agent.closing_sections())
        raise _Feedback(feedback.no_usable_section(expected, record.output, example))

    async def _run_action(self, record: StepRecord, content: str) -> list[ContentPart]:
        """Read the calls of the action, repair the ones that do not validate, run them and
        record them; the observation (with the step's notes) for the model.
        """
        toolchain = self.agent.toolchain
        assert toolchain is not None  # only called when there is an action section
        calls = await self.repair.repair_calls(record, self._read_calls(toolchain, content))
        self.emit(ToolCallsStarted(record.index, tuple(calls)))
        started = time.perf_counter()
        try:
            result = await execute_calls(toolchain, calls, self.agent.format, self.context)
        except ParseError as error:  # a chain refusing the calls as a whole: nothing ran
            raise _Feedback(error.model_message, error) from error
        record.tool_seconds = time.perf_counter() - started
        self.stats.tool_seconds += record.tool_seconds
        record.outcome = "action"
        self.stopping_tools = [
            call.tool
            for call, outcome in zip(result.calls, result.results, strict=False)
            if outcome.ok and outcome.stop_run
        ]
        self._record_calls(record, result)
        self._note_repeats(record, toolchain)
        self._fire("gent_transform_observation", result=result)
        return self._observation(record, result)

    def _read_calls(self, toolchain: ToolChain, content: str) -> list[ToolCall]:
        """The calls the tool chain reads in the action ``content``, checked against the
        bounds of values and the calls an action may hold; feedback when there are none or
        they cannot be read.
        """
        started = time.perf_counter()
        try:
            calls = toolchain.parse(content)
        except GentError as error:
            raise _Feedback(error.model_message, error) from error
        except Exception as error:  # a tool-chain bug on this text: the run goes on
            raise _unreadable(toolchain.name, toolchain, error) from error
        finally:
            self.stats.parse_seconds += time.perf_counter() - started
        if not isinstance(calls, list) or not all(isinstance(c, ToolCall) for c in calls):
            problem = TypeError(f"parse() returned {type(calls).__name__}, not a list of ToolCall")
            raise _unreadable(toolchain.name, toolchain, problem, "not a list of tool calls")
        for number, call in enumerate(calls, start=1):
            try:  # the shipped chains check this while parsing; any other chain is held to it
                check_value(call.args, convert=True, name="args")
            except ValueBoundsError as error:
                raise _Feedback(
                    feedback.call_out_of_bounds(number, call.tool, error.problem)
                ) from None
        if not calls:
            raise _Feedback(feedback.no_tool_call(toolchain.name, self.agent.termination.name))
        try:
            check_call_count(calls, self.context.limits)
        except ParseError as error:
            raise _Feedback(error.model_message, error) from error
        return calls

    def _observation(self, record: StepRecord, result: ToolChainResult) -> list[ContentPart]:
        """Put what the calls gave for the clipboard on it; the observation's text (the
        step's notes after it) and media.
        """
        limit = self.context.limits.max_clipboard_chars
        for call, outcome in zip(result.calls, result.results, strict=False):
            for text in outcome.clipboard_text:
                self.context.clipboard.add_text(truncate_output(text, limit), source=call.tool)
            for path in outcome.clipboard_files:
                self.context.clipboard.add_file(path, source=call.tool)
        text = result.text
        if record.notes:
            text = "\n\n".join([text, *record.notes]) if text else "\n\n".join(record.notes)
        parts: list[ContentPart] = [TextPart(text)] if text else []
        parts.extend(result.media)
        return parts

    def _note_repeats(self, record: StepRecord, toolchain: ToolChain) -> None:
        """Tell the model about calls that repeat an earlier call with the same result."""
        for repeat in find_repeats(self.steps, record):
            note = feedback.repeat_note(
                repeat,
                step=record.index,
                answer_section=self.agent.termination.name,
                format_output=toolchain.format_output,
            )
            if note not in record.notes:
                record.notes.append(note)

    def _record_calls(self, record: StepRecord, result: ToolChainResult) -> None:
        limit = self.context.limits.max_recorded_output_chars
        for call, outcome, error in zip(result.calls, result.results, result.errors, strict=False):
            self.stats.tool_calls[call.tool] += 1
            if error is not None:
                self.stats.tool_errors[call.tool] += 1
            output, chars = (None, None) if error else recorded_output(outcome.output, limit)
            record.calls.append(
                ToolCallRecord(
                    id=call.id,
                    tool=call.tool,
                    args=dict(call.args),
                    status=outcome.status,
                    output=output,
                    # An error is recorded within the bound of an output, cut with a note.
                    error=truncate_output(error.model_message, limit) if error else None,
                    output_chars=chars,
                )
            )
            self.emit(ToolCallFinished(record.index, call, outcome, error))

    # ------------------------------------------------------------------ followup

    async def _send_followup(self, record: StepRecord, parts: list[ContentPart]) -> None:
        """Append the observation/feedback (and the clipboard) as the next user message."""
        clipboard = await render_clipboard(
            self.context.clipboard,
            self.context.working_directory,
            self.agent.format,
            self.context.limits.max_clipboard_chars,
        )
        if clipboard:
            parts = [*parts, TextPart(("\n\n" if parts else "") + clipboard)]
        if not self.agent.model.supports_images:
            dropped = [part for part in parts if isinstance(part, ImagePart)]
            if dropped:
                parts = [part for part in parts if not isinstance(part, ImagePart)]
                parts.append(TextPart(feedback.images_dropped(len(dropped))))
        record.followup = "".join(part.text for part in parts if isinstance(part, TextPart))
        record.followup_media = [
            {"media_type": part.media_type, "data": base64.b64encode(part.data).decode("ascii")}
            for part in parts
            if isinstance(part, ImagePart)
        ]
        self.messages.append(Message.user(parts))

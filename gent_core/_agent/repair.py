"""Repairing failed calls: the model writes one failed call again, not the whole step.

A call that reads but does not validate (an unknown tool, a missing or wrong argument) would
otherwise cost a whole step: the model sees an error, writes everything again, and may break
what was right. Instead, before anything runs, the agent asks for that one call again
(:class:`CallRepair`):

1. the request, written as an observation with an ``error`` section, says which call failed
   and why (the error's model-facing text) and asks for that call alone;
2. the model writes an action under a structure narrowed to that call: the tool chain offers
   that one tool (:meth:`ToolChain.with_tools <gent_core.toolchain.ToolChain.with_tools>`),
   one call, no answer section, so a back end with a grammar can only write a call of that
   tool with arguments valid for its schema (an unknown tool's call may name any tool);
3. the call it wrote replaces the failed one when it reads and validates; otherwise the model
   tries again, up to ``limits.max_repairs`` times per call, and then the agent moves on with
   the call as it was (it fails when it runs, and the observation says why).

Every try is a model call, and counts against the run's budget of model calls
(``limits.max_model_calls``, by default ``max_steps * (1 + max_repairs)``): once it is spent
no repair is asked for (the calls run as written) and the run stops after the step.

The request and what the model wrote join the conversation (before the observation), and
each try is recorded in the step (:class:`~gent_core.records.RepairRecord`), so a
transcript replays it and an evaluation counts repairs.

An action that does not read as calls at all (broken JSON, a call cut off) names no call to
repair: it is feedback, and the model writes the step again, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gent_core._agent import feedback
from gent_core._agent.streaming import ModelOutput, cut_off, stream_model_output
from gent_core.errors import GentError, UnknownToolError
from gent_core.events import FeedbackSent
from gent_core.messages import Message
from gent_core.model import ModelRequest, ModelResponse, OutputStructure
from gent_core.records import ModelCallStats, RepairRecord, RunStats, StepRecord
from gent_core.sections import FormattedSection
from gent_core.toolchain import ToolCall

if TYPE_CHECKING:
    from gent_core._agent.protocol import RunAgent
    from gent_core.context import ExecutionContext
    from gent_core.events import AgentEvent
    from gent_core.tools.base import Tool

__all__ = ["CallRepair", "call_problem"]


def call_problem(call: ToolCall, tools: dict[str, Tool]) -> GentError | None:
    """Why ``call`` cannot run as written (an unknown tool, arguments its tool refuses), or
    ``None``. Nothing runs: only the tool's validator is asked.
    """
    tool = tools.get(call.tool)
    if tool is None:
        return UnknownToolError(call.tool, list(tools))
    try:
        tool.validate_arguments(call.args)
    except GentError as error:
        return error
    except Exception:  # noqa: BLE001 - a validator's bug: the call fails when it runs, as before
        return None
    return None


class CallRepair:
    """Asks the model to write failed calls again (see the module docstring).

    Args:
        agent: The run's agent (its parts and settings).
        context: The run's execution context (``limits.max_repairs``).
        messages: The run's conversation; repair requests and outputs are appended to it.
        stats: The run's statistics (repair model calls are counted there).
        emit: Receives the run's events.
        fire: Calls a lifecycle hook of every plugin (as the run does for each model call).
        calls_left: Model calls the run may still make (``limits.max_model_calls``); no try
            is made when none is left.
    """

    def __init__(
        self,
        agent: RunAgent,
        context: ExecutionContext,
        messages: list[Message],
        stats: RunStats,
        emit: Callable[[AgentEvent], None],
        fire: Callable[..., None],
        calls_left: Callable[[], int],
    ) -> None:
        self.agent = agent
        self.context = context
        self.messages = messages
        self.stats = stats
        self.emit = emit
        self.fire = fire
        self.calls_left = calls_left

    @property
    def budget(self) -> int:
        """Tries per failed call (``limits.max_repairs``)."""
        return max(0, self.context.limits.max_repairs)

    async def repair_calls(self, record: StepRecord, calls: list[ToolCall]) -> list[ToolCall]:
        """``calls`` with each call that cannot run replaced by the model's repair of it, when
        one reads and validates within the budget (the others as they were). No try is made
        once the run's model calls are spent (:attr:`calls_left`).

        Raises:
            ModelError: When the back end fails during a repair.
            HookError: When a lifecycle hook raises.
        """
        chain = self.agent.toolchain
        if chain is None or self.budget == 0:
            return calls
        tools = {tool.name: tool for tool in chain.tools}
        repaired = list(calls)
        for position, call in enumerate(calls):
            problem = call_problem(call, tools)
            if problem is None:
                continue
            tool = tools.get(call.tool)
            for _ in range(self.budget):
                if self.calls_left() <= 0:
                    return repaired
                found = await self._ask(
                    record,
                    position,
                    tool,
                    problem,
                    feedback.repair_request(position, call.tool, problem.model_message, chain.name),
                )
                if isinstance(found, ToolCall):
                    repaired[position] = ToolCall(found.tool, found.args, call.id)
                    break
                problem = found
        return repaired

    # ------------------------------------------------------------------ one try

    def _structure(self, tool: Tool | None) -> OutputStructure:
        agent = self.agent
        chain = agent.toolchain
        assert chain is not None  # checked by the callers
        narrowed = chain.with_tools([tool]) if tool is not None else chain
        special = {chain.name, agent.termination.name}
        sections = [section for section in agent.sections() if section.name not in special]
        return OutputStructure(agent.format, [*sections, narrowed], narrowed, None, max_calls=1)

    async def _ask(
        self,
        record: StepRecord,
        position: int,
        tool: Tool | None,
        problem: GentError,
        message: str,
    ) -> ToolCall | GentError:
        """One try: the repaired call, else what is wrong with what the model wrote."""
        request_text = self.agent.format.format_observation([FormattedSection("error", message)])
        self.emit(FeedbackSent(record.index, message, problem))
        self.messages.append(Message.user(request_text))
        output, stats = await self._call_model(record, tool)
        found = self._read(output, tool)
        record.repairs.append(
            RepairRecord(
                call=position,
                tool=tool.name if tool is not None else None,
                error=problem.model_message,
                request=request_text,
                output=output.text,
                ok=not isinstance(found, GentError),
                model=stats,
            )
        )
        return found

    async def _call_model(
        self, record: StepRecord, tool: Tool | None
    ) -> tuple[ModelOutput, ModelCallStats]:
        """Ask the model for the call again, under the structure narrowed to ``tool``; its
        output joins the conversation and the run's statistics.
        """
        agent = self.agent
        chain = agent.toolchain
        assert chain is not None  # checked by the callers
        structure = self._structure(tool)
        messages = list(self.messages)
        self.fire("gent_transform_messages", messages=messages)
        request = ModelRequest(
            messages=messages,
            stop=agent.format.stop_sequences([chain.name]),
            max_tokens=agent.max_tokens,
            temperature=agent.temperature,
            structure=structure,
        )
        self.fire("gent_before_model_call", request=request)
        output = await stream_model_output(
            agent.model,
            request,
            agent.format,
            structure.sections,
            {chain.name},
            self.emit,
            record.index,
            self.context.limits,
        )
        self.messages.append(Message.assistant(output.text))
        stats = ModelCallStats(
            output.usage.input_tokens,
            output.usage.output_tokens,
            output.seconds,
            output.finish_reason,
        )
        self.stats.model_calls.append(stats)
        self.stats.model_seconds += output.seconds
        self.fire(
            "gent_after_model_call",
            request=request,
            response=ModelResponse(output.text, output.usage, output.finish_reason),
        )
        return output, stats

    def _read(self, output: ModelOutput, tool: Tool | None) -> ToolCall | GentError:
        chain = self.agent.toolchain
        assert chain is not None
        assert output.parsed is not None or output.parse_error is not None
        if cut_off(output.finish_reason):
            return GentError(
                "the repair was cut off",
                model_message=feedback.repair_cut_off(),
            )
        if output.parse_error is not None or output.parsed is None:
            error: GentError = output.parse_error or GentError("the repair could not be read")
            return error
        actions = [text for text in output.parsed.untrimmed(chain.name) if text.strip()]
        if not actions:
            return GentError(
                "the repair held no action",
                model_message=feedback.repair_no_action(chain.name),
            )
        try:
            calls = chain.parse(actions[0])
        except GentError as parse_error:
            return parse_error
        except Exception as crash:  # noqa: BLE001 - a chain's bug on this text: a failed try
            return GentError(f"{type(chain).__name__}.parse failed: {crash}")
        tools = {known.name: known for known in chain.tools}
        if len(calls) != 1 or (tool is not None and calls[0].tool != tool.name):
            wanted = tool.name if tool is not None else "one of the tools"
            return GentError(
                "the repair was not one call of the tool",
                model_message=feedback.repair_not_one_call(wanted),
            )
        problem = call_problem(calls[0], tools)
        return calls[0] if problem is None else problem

"""Events an agent run emits, for live views, logging and tests.

Pass ``on_event=callback`` to :meth:`gent_core._agent.Agent.run`; the callback receives each
event as it happens (model text while it streams, tool calls, feedback, the answer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gent_core.sections import SectionEvent
from gent_core.toolchain import ToolCall

if TYPE_CHECKING:
    from gent_core.errors import GentError
    from gent_core.records import RunResult
    from gent_core.tools.result import ToolResult

__all__ = [
    "AgentEvent",
    "AnswerReady",
    "FeedbackSent",
    "ModelLoaded",
    "ModelLoading",
    "OutputEvent",
    "RunFinished",
    "RunStarted",
    "StepStarted",
    "ToolCallFinished",
    "ToolCallsStarted",
]


@dataclass(frozen=True)
class RunStarted:
    """A run began (``resumed_steps`` > 0 when it continues a transcript).

    Attributes:
        task: The task, as the user wrote it.
        resumed_steps: Steps taken before, by the run this one continues.
        answer_section: The name of the section the final answer is written in (the
            termination's), so a view can show it as the user's text, never redacted.
    """

    task: str
    resumed_steps: int = 0
    answer_section: str = "answer"


@dataclass(frozen=True)
class ModelLoading:
    """The model is being loaded (weights, connections); may take a while."""

    model: str


@dataclass(frozen=True)
class ModelLoaded:
    """The model finished loading."""

    model: str
    seconds: float


@dataclass(frozen=True)
class StepStarted:
    """Step ``step`` (1-based) began: the model is about to be called."""

    step: int


@dataclass(frozen=True)
class OutputEvent:
    """A section event from the model's streaming output (text as it arrives)."""

    step: int
    event: SectionEvent


@dataclass(frozen=True)
class ToolCallsStarted:
    """The action's calls are about to run."""

    step: int
    calls: tuple[ToolCall, ...]


@dataclass(frozen=True)
class ToolCallFinished:
    """One call finished (successfully or not)."""

    step: int
    call: ToolCall
    result: ToolResult
    error: GentError | None


@dataclass(frozen=True)
class FeedbackSent:
    """The model's output could not be used; ``message`` goes back to it."""

    step: int
    message: str
    error: GentError | None


@dataclass(frozen=True)
class AnswerReady:
    """The model gave a valid final answer."""

    step: int
    answer: Any


@dataclass(frozen=True)
class RunFinished:
    """The run ended (with an answer or for the reason in ``result.stop_reason``)."""

    result: RunResult


AgentEvent = (
    RunStarted
    | ModelLoading
    | ModelLoaded
    | StepStarted
    | OutputEvent
    | ToolCallsStarted
    | ToolCallFinished
    | FeedbackSent
    | AnswerReady
    | RunFinished
)
"""Any event of a run, as ``Agent.stream`` yields them and observers receive them."""

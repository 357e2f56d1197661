"""The agent: a ReAct loop over text, its events, records and approval policies."""

from gent_core._agent.agent import THINKING_GUIDANCE, Agent
from gent_core._config.approval import ApprovalPolicy
from gent_core._config.prompt import PromptParts
from gent_core.events import (
    AgentEvent,
    AnswerReady,
    FeedbackSent,
    ModelLoaded,
    ModelLoading,
    OutputEvent,
    RunFinished,
    RunStarted,
    StepStarted,
    ToolCallFinished,
    ToolCallsStarted,
)
from gent_core.records import (
    ModelCallStats,
    RunResult,
    RunStats,
    StepRecord,
    StopReason,
    ToolCallRecord,
)

__all__ = [
    "THINKING_GUIDANCE",
    "Agent",
    "AgentEvent",
    "AnswerReady",
    "ApprovalPolicy",
    "FeedbackSent",
    "ModelCallStats",
    "ModelLoaded",
    "ModelLoading",
    "OutputEvent",
    "PromptParts",
    "RunFinished",
    "RunResult",
    "RunStarted",
    "RunStats",
    "StepRecord",
    "StepStarted",
    "StopReason",
    "ToolCallFinished",
    "ToolCallRecord",
    "ToolCallsStarted",
]

"""What a run produced: step records, statistics and the run result (JSON-ready).

Every ``to_dict()`` returns strict-JSON data and never raises: values go through
:func:`gent_core._serialize.to_json_data`, so ``NaN``, a too-large integer or a branch nested too
deeply is written as text, never as invalid JSON or an exception.

:func:`redact_record` is the one place that decides which fields of a run record are the
user's own text (:data:`USER_TEXT_FIELDS`: the task, the answer), never redacted; every
``gent`` output of a run record (``--json``, the transcript) goes through it.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from gent_core._record_fields import FieldReader, RecordError
from gent_core._serialize import to_json_data

__all__ = [
    "USER_TEXT_FIELDS",
    "ModelCallStats",
    "RepairRecord",
    "RunResult",
    "RunStats",
    "StepOutcome",
    "StepRecord",
    "StopReason",
    "ToolCallRecord",
    "format_tokens",
    "recorded_output",
    "redact_record",
]

StopReason = Literal[
    "answer",
    "max_steps",
    "format_errors",
    "tool_errors",
    "model_error",
    "plugin_error",
    "cancelled",
    "tool_stop",
    "max_model_calls",
    "repeated_failure",
]
"""Why a run ended: only ``"answer"`` is a success. ``"tool_stop"``: a tool asked to stop
the run after its step (:attr:`ToolResult.stop_run <gent_core.tools.ToolResult.stop_run>`, a
declared tool with ``stop``); the step's calls are the outcome. ``"max_model_calls"``: the
run's model calls, repairs included, reached ``limits.max_model_calls``.
``"repeated_failure"``: the same call failed ``limits.max_repeated_failures`` times."""

StepOutcome = Literal["action", "answer", "feedback"]
"""What a step did: ran tools, answered, or sent feedback about an unusable output."""


@dataclass
class ToolCallRecord:
    """One tool call of a step, with its result.

    Attributes:
        id: The call id within the step.
        tool: The tool name as written by the model.
        args: The arguments as written by the model.
        status: ``"success"`` or ``"error"``.
        output: The tool's raw output made JSON-ready (``None`` on error), or its first
            characters when it was too long to record whole (see ``output_chars``).
        error: The error's model-facing text, on error.
        output_chars: ``None`` when ``output`` is the whole output. Otherwise the output was
            longer than the record keeps (``limits.max_recorded_output_chars``): this is its
            length in characters (of the text itself for a text output, of its JSON text
            otherwise) and ``output`` is a text holding only its beginning. Written as
            ``"output_truncated": {"chars": ..., "recorded_chars": ...}``.
    """

    id: str
    tool: str
    args: dict[str, Any]
    status: str
    output: Any = None
    error: str | None = None
    output_chars: int | None = None

    @classmethod
    def read(cls, fields: FieldReader) -> ToolCallRecord:
        """Rebuild a call record from its :meth:`to_dict` form, checking every field.

        Raises:
            RecordError: Naming the first missing or invalid field.
        """
        truncated = fields.child("output_truncated") if "output_truncated" in fields.data else None
        output = fields.data.get("output")
        if truncated is not None:
            truncated.integer("recorded_chars")
            output = fields.text("output")
        return cls(
            id=fields.text("id", ""),
            tool=fields.text("tool"),
            args=dict(fields.child("args", {}).data),
            status=fields.choice("status", ("success", "error")),
            output=output,
            error=fields.text("error", None, optional=True),
            output_chars=truncated.integer("chars") if truncated is not None else None,
        )

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        data = {
            "id": self.id,
            "tool": self.tool,
            "args": to_json_data(self.args),
            "status": self.status,
            "output": to_json_data(self.output),
            "error": self.error,
        }
        if self.output_chars is not None:
            recorded = len(self.output) if isinstance(self.output, str) else 0
            data["output_truncated"] = {"chars": self.output_chars, "recorded_chars": recorded}
        return data


def recorded_output(output: Any, limit: int) -> tuple[Any, int | None]:
    """What a run's record keeps of a tool's raw output: the one bound on recorded outputs.

    Args:
        output: The tool's raw output.
        limit: The most characters recorded (``limits.max_recorded_output_chars``).

    Returns:
        ``(output made JSON-ready, None)`` when it fits, else ``(its first limit characters,
        its length)``: the characters of the text itself for a text output, of its JSON text
        (as ``--json`` writes it) otherwise.
    """
    if isinstance(output, str):
        text = output
    else:
        data = to_json_data(output)
        if isinstance(data, str):
            text = data
        else:
            text = json.dumps(data, ensure_ascii=False, allow_nan=False)
            if len(text) <= limit:
                return data, None
    if len(text) <= limit:
        return text, None
    return text[:limit], len(text)


@dataclass
class ModelCallStats:
    """Tokens and time of one model call."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    seconds: float = 0.0
    finish_reason: str | None = None


@dataclass
class RepairRecord:
    """One attempt at repairing a call: the model asked to write one failed call again, under
    that tool's grammar, with the error in front of it.

    Attributes:
        call: The position of the call in the step's action (0-based).
        tool: The tool the call named, when it is one of the agent's tools (``None`` for an
            unknown tool: the repair may name any).
        error: What was wrong, as the model was told.
        request: The text sent to ask for the repair.
        output: What the model wrote.
        ok: Whether the output gave a call that reads and validates.
        model: Tokens and time of the model call.
    """

    call: int
    tool: str | None
    error: str
    request: str
    output: str
    ok: bool
    model: ModelCallStats = field(default_factory=ModelCallStats)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "call": self.call,
            "tool": self.tool,
            "error": self.error,
            "request": self.request,
            "output": self.output,
            "ok": self.ok,
            "model": {
                "input_tokens": self.model.input_tokens,
                "output_tokens": self.model.output_tokens,
                "seconds": round(self.model.seconds, 6),
                "finish_reason": self.model.finish_reason,
            },
        }

    @classmethod
    def read(cls, fields: FieldReader) -> RepairRecord:
        """Rebuild a repair record from its :meth:`to_dict` form.

        Raises:
            RecordError: Naming the first missing or invalid field.
        """
        model = fields.child("model", {})
        return cls(
            call=fields.integer("call"),
            tool=fields.text("tool", None, optional=True),
            error=fields.text("error"),
            request=fields.text("request"),
            output=fields.text("output"),
            ok=fields.boolean("ok"),
            model=ModelCallStats(
                model.integer("input_tokens", None, optional=True),
                model.integer("output_tokens", None, optional=True),
                model.number("seconds", 0.0),
                model.text("finish_reason", None, optional=True),
            ),
        )


@dataclass
class StepRecord:
    """One step: what the model wrote and what came of it.

    Attributes:
        index: 1-based step number.
        output: The model's output (with a closing delimiter restored when the back end
            stopped on it).
        outcome: ``"action"``, ``"answer"`` or ``"feedback"``.
        calls: The tool calls and their results (for an action).
        followup: The text sent back to the model after this step (observation or feedback,
            clipboard included); empty after the answer.
        followup_media: Media sent with the followup, as ``{"media_type", "data"}`` (base64).
        feedback: The problem with the output, when ``outcome == "feedback"``.
        error_kind: The error class name behind the feedback.
        answer: The parsed answer (JSON-ready), when ``outcome == "answer"``.
        notes: Remarks such as an ignored answer next to an action.
        model: Token counts and time of the model call.
        tool_seconds: Time spent running tools.
        clipboard: The clipboard after the step (for resuming).
        repairs: The repairs of failed calls asked for during the step, in order; the
            conversation holds each request and what the model wrote, before the
            observation.
    """

    index: int
    output: str
    outcome: StepOutcome
    calls: list[ToolCallRecord] = field(default_factory=list)
    followup: str = ""
    followup_media: list[dict[str, str]] = field(default_factory=list)
    feedback: str | None = None
    error_kind: str | None = None
    answer: Any = None
    notes: list[str] = field(default_factory=list)
    model: ModelCallStats = field(default_factory=ModelCallStats)
    tool_seconds: float = 0.0
    clipboard: list[dict[str, str]] = field(default_factory=list)
    repairs: list[RepairRecord] = field(default_factory=list)
    answer_value: Any = field(default=None, repr=False, compare=False)
    """The answer as the termination returned it (a pydantic model...); not serialised."""

    @property
    def all_calls_failed(self) -> bool:
        """Whether the step ran calls and every one failed."""
        return bool(self.calls) and all(call.status == "error" for call in self.calls)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (the transcript line and ``gent run --json`` entry)."""
        return {
            "index": self.index,
            "output": self.output,
            "outcome": self.outcome,
            "calls": [call.to_dict() for call in self.calls],
            "followup": self.followup,
            "followup_media": self.followup_media,
            "feedback": self.feedback,
            "error_kind": self.error_kind,
            "answer": to_json_data(self.answer),
            "notes": self.notes,
            "model": {
                "input_tokens": self.model.input_tokens,
                "output_tokens": self.model.output_tokens,
                "seconds": round(self.model.seconds, 6),
                "finish_reason": self.model.finish_reason,
            },
            "tool_seconds": round(self.tool_seconds, 6),
            "clipboard": self.clipboard,
            "repairs": [repair.to_dict() for repair in self.repairs],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StepRecord:
        """Rebuild a record from :meth:`to_dict` output (a transcript line).

        Raises:
            RecordError: Naming the first missing or invalid field (a ``ValueError``).
        """
        fields = FieldReader(data)
        model = fields.child("model", {})
        return cls(
            index=fields.integer("index"),
            output=fields.text("output"),
            outcome=fields.choice("outcome", ("action", "answer", "feedback")),
            calls=fields.objects("calls", ToolCallRecord.read),
            followup=fields.text("followup", ""),
            followup_media=fields.objects("followup_media", _media),
            feedback=fields.text("feedback", None, optional=True),
            error_kind=fields.text("error_kind", None, optional=True),
            answer=data.get("answer"),
            notes=fields.strings("notes"),
            model=ModelCallStats(
                model.integer("input_tokens", None, optional=True),
                model.integer("output_tokens", None, optional=True),
                model.number("seconds", 0.0),
                model.text("finish_reason", None, optional=True),
            ),
            tool_seconds=fields.number("tool_seconds", 0.0),
            clipboard=fields.objects("clipboard", _clipboard_record),
            repairs=fields.objects("repairs", RepairRecord.read),
        )


def _media(fields: FieldReader) -> dict[str, str]:
    media_type = fields.text("media_type")
    data = fields.text("data")
    try:
        base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise RecordError(f"'{fields.where}data' is not base64") from None
    return {"media_type": media_type, "data": data}


def _clipboard_record(fields: FieldReader) -> dict[str, str]:
    source = fields.text("source", "")
    if "path" in fields.data:
        return {"path": fields.text("path"), "source": source}
    return {"text": fields.text("text"), "source": source}


def format_tokens(
    input_tokens: float | None, output_tokens: float | None, *, reported: bool = True
) -> str:
    """Token counts for people: ``"1,234 in / 56 out"``, or ``"not reported"`` when the back
    end reported none (the counts are then unknown, not 0). Every summary that shows tokens
    (``gent run``'s status line, ``gent eval``'s table) writes them with this.

    Args:
        input_tokens: Tokens sent (a total or a mean); ``None`` is not reported.
        output_tokens: Tokens generated; ``None`` is not reported.
        reported: Whether the back end reported any count (:attr:`RunStats.tokens_reported`).
    """
    if not reported or input_tokens is None or output_tokens is None:
        return "not reported"
    return f"{input_tokens:,.0f} in / {output_tokens:,.0f} out"


@dataclass
class RunStats:
    """Statistics of a run.

    Attributes:
        steps: Steps taken.
        model_calls: Tokens and time per model call, in order.
        tool_calls: Calls per tool name.
        tool_errors: Failed calls per tool name.
        model_seconds: Time spent in model calls (streaming included).
        parse_seconds: Time spent reading tool calls and answers (sections are parsed while
            the output streams, inside ``model_seconds``).
        tool_seconds: Time spent running tools.
        load_seconds: Time spent loading the model.
        total_seconds: Wall time of the run.
    """

    steps: int = 0
    model_calls: list[ModelCallStats] = field(default_factory=list)
    tool_calls: Counter[str] = field(default_factory=Counter)
    tool_errors: Counter[str] = field(default_factory=Counter)
    model_seconds: float = 0.0
    parse_seconds: float = 0.0
    tool_seconds: float = 0.0
    load_seconds: float = 0.0
    total_seconds: float = 0.0

    @property
    def input_tokens(self) -> int:
        """Input tokens over every call that reported them."""
        return sum(call.input_tokens or 0 for call in self.model_calls)

    @property
    def output_tokens(self) -> int:
        """Output tokens over every call that reported them."""
        return sum(call.output_tokens or 0 for call in self.model_calls)

    @property
    def tokens_reported(self) -> bool:
        """Whether any model call reported token counts (otherwise both sums are unknown,
        not 0).
        """
        return any(
            call.input_tokens is not None or call.output_tokens is not None
            for call in self.model_calls
        )

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "steps": self.steps,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "model_calls": [
                {
                    "input_tokens": call.input_tokens,
                    "output_tokens": call.output_tokens,
                    "seconds": round(call.seconds, 6),
                }
                for call in self.model_calls
            ],
            "tool_calls": dict(self.tool_calls),
            "tool_errors": dict(self.tool_errors),
            "seconds": {
                "model": round(self.model_seconds, 6),
                "parse": round(self.parse_seconds, 6),
                "tools": round(self.tool_seconds, 6),
                "load": round(self.load_seconds, 6),
                "total": round(self.total_seconds, 6),
            },
        }


@dataclass
class RunResult:
    """The outcome of a run.

    Attributes:
        answer: The final answer (``None`` unless ``stop_reason == "answer"``).
        stop_reason: Why the run ended.
        message: A sentence explaining the stop reason, for people.
        steps: Every step, in order.
        stats: Statistics.
        task: The task.
        interrupted: Whether the run was cut short before its end (``KeyboardInterrupt``, or
            its asyncio task cancelled; the stop reason is ``cancelled``): a transcript writes
            no ``end`` line for it, so the run can be resumed. Not in :meth:`to_dict`.
    """

    answer: Any
    stop_reason: StopReason
    message: str
    steps: list[StepRecord]
    stats: RunStats
    task: str = ""
    interrupted: bool = False

    @property
    def ok(self) -> bool:
        """Whether the run ended with an answer."""
        return self.stop_reason == "answer"

    def to_dict(self) -> dict[str, Any]:
        """Return the JSON object ``gent run --json`` prints."""
        return {
            "answer": to_json_data(self.answer),
            "stop_reason": self.stop_reason,
            "message": self.message,
            "task": self.task,
            "steps": [step.to_dict() for step in self.steps],
            "stats": self.stats.to_dict(),
        }


USER_TEXT_FIELDS = frozenset({"task", "answer"})
"""The fields of a run record that hold the user's own text: the task and the final answer
(at the top of a record — the ``--json`` object, a transcript line — and of each of its
``steps``). Redaction never changes them."""

_VOCABULARY = frozenset(
    {"type", "version", "started", "at", "outcome", "status", "stop_reason", "error_kind", "id"}
    | {"model", "followup_media", "stats"}
)
"""Fields holding gent's own vocabulary (kinds, outcomes, reasons, ids, timings, base64 media),
not free text: never redacted either, so a record always reads back."""

_RECORD_LISTS = frozenset({"steps", "calls", "clipboard", "repairs"})
"""Fields holding records of their own (steps, tool calls, clipboard entries)."""


def redact_record(record: Mapping[str, Any], redact: Callable[[str], str]) -> dict[str, Any]:
    """Return a JSON-ready run record with ``redact`` applied to its free text.

    Redacted: every string value of the free-text fields — the model's output, observations,
    feedback, notes, tool names, arguments, results and errors, clipboard entries, messages,
    the system prompt and the configuration — as data (keys and structure never change).
    Kept exactly as written: the user's own text (:data:`USER_TEXT_FIELDS`, also in each
    entry of ``steps``) and gent's own vocabulary (record types, outcomes, statuses, stop
    reasons, ids, timings), so the record reads back as it was written (``--resume``).

    Args:
        record: A :meth:`RunResult.to_dict`, :meth:`StepRecord.to_dict` or transcript line.
        redact: Masks secrets in one text (e.g. ``LoadedConfig.redact``).
    """
    redacted: dict[str, Any] = {}
    for key, value in record.items():
        if key in USER_TEXT_FIELDS or key in _VOCABULARY:
            redacted[key] = value
        elif key in _RECORD_LISTS and isinstance(value, list):
            redacted[key] = [
                redact_record(item, redact)
                if isinstance(item, Mapping)
                else to_json_data(item, redact=redact)
                for item in value
            ]
        else:
            redacted[key] = to_json_data(value, redact=redact)
    return redacted

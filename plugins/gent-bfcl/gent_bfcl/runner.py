"""BFCL's own prompt mode as a baseline: prompt a gent :class:`~gent_core.Model` as BFCL
prompts a model without function calling, decode its output as BFCL does, and judge it with
gent's checker.

Per task, the model gets BFCL's messages (:func:`gent_bfcl.prompt.bfcl_messages`: BFCL's system
prompt with the function docs, then the question's first turn) in one
:class:`~gent_core.ModelRequest` without an output structure, so no few-shot example and no
grammar: the model writes what it likes, as under BFCL. How the messages become text is the
back end's business: a chat back end sends them as chat messages (as BFCL does through a chat
template); a base-model back end renders them as a plain transcript (``llamacpp``: the system
prompt, a blank line, ``User: <question>``, a blank line, ``Assistant:``, stopping at the next
``User:``).
Only the first step's output is judged, as BFCL judges single-turn categories.

Verdicts follow BFCL's runner: an output the decoder cannot read is ``unparsable`` (BFCL:
"Failed to decode AST"), except in irrelevance categories, where it counts as no call and so
as valid. A model that fails gives ``model_error``; nothing a model does raises out of
:func:`run_baseline`.
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from gent_bfcl.categories import check_kind
from gent_bfcl.checker import check_task
from gent_bfcl.data import BFCLTask
from gent_bfcl.prompt import bfcl_messages
from gent_bfcl.pycalls import DecodeError, decode_calls
from gent_bfcl.verdict import UNDECODED_AS_NO_CALL, FailureKind, Verdict
from gent_core import Message, Model, ModelRequest
from gent_core.messages import Role

__all__ = [
    "BASELINE",
    "BFCL_TEMPERATURE",
    "TaskResult",
    "chat_message",
    "request_for",
    "run_baseline",
    "run_task",
    "summarize",
]

BASELINE = "bfcl-prompt"
"""The configuration label of BFCL's own prompt mode in results."""

BFCL_TEMPERATURE = 0.001
"""BFCL's default sampling temperature (``bfcl generate --temperature``)."""


@dataclass(frozen=True)
class TaskResult:
    """The baseline's result for one task.

    Attributes:
        task_id: BFCL's id of the task.
        category: Its category.
        output: What the model wrote (first step).
        calls: The decoded calls, or ``None`` when the output could not be decoded.
        verdict: The checker's verdict (or ``unparsable`` / ``model_error``).
        input_tokens: Prompt tokens, as the back end reports them.
        output_tokens: Generated tokens, as the back end reports them.
        seconds: Wall-clock time of the model call (of the agent's run, for gent's agent).
        finish_reason: Why generation ended, as the back end reports it.
        config: Which configuration made it (:data:`BASELINE` for BFCL's prompt mode).
        copied_calls: Calls holding an argument value copied from an example call the prompt
            showed (:func:`gent_bfcl.agentrun.copied` says how it is counted).
        repairs: Calls that failed to parse or validate and that the agent asked the model
            to write again.
        repaired: Of those, the ones the model wrote again correctly.
    """

    task_id: str
    category: str
    output: str
    calls: list[dict[str, dict[str, Any]]] | None
    verdict: Verdict
    input_tokens: int | None
    output_tokens: int | None
    seconds: float
    finish_reason: str | None = None
    config: str = BASELINE
    copied_calls: int = 0
    repairs: int = 0
    repaired: int = 0

    @property
    def unparsable(self) -> bool:
        """Whether the output could not be read as calls (nor as an answer)."""
        return self.verdict.kind is FailureKind.UNPARSABLE

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record (calls as decoded: tuples become lists when dumped)."""
        return {
            "config": self.config,
            "id": self.task_id,
            "category": self.category,
            "valid": self.verdict.valid,
            "kind": self.verdict.kind.value if self.verdict.kind else None,
            "message": self.verdict.message,
            "output": self.output,
            "calls": self.calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "seconds": round(self.seconds, 3),
            "finish_reason": self.finish_reason,
            "copied_calls": self.copied_calls,
            "repairs": self.repairs,
            "repaired": self.repaired,
        }


def request_for(
    task: BFCLTask, *, max_tokens: int | None = None, temperature: float | None = BFCL_TEMPERATURE
) -> ModelRequest:
    """The model request for ``task``'s first turn in BFCL's prompt mode (no structure).

    Raises:
        ValueError: For a message whose role is not system, user or assistant (the reader
            refuses such tasks already).
    """
    messages = [
        chat_message(task, message) for message in bfcl_messages(task.functions, task.question[0])
    ]
    return ModelRequest(messages, max_tokens=max_tokens, temperature=temperature)


def chat_message(task: BFCLTask, message: Mapping[str, Any]) -> Message:
    """One of ``task``'s messages (``{role, content}``) as a gent :class:`~gent_core.Message`.

    Raises:
        ValueError: For a role other than system, user or assistant (the reader refuses such
            tasks already).
    """
    role = str(message.get("role", "user"))
    if role not in ("system", "user", "assistant"):
        raise ValueError(f"task {task.id!r}: a message with the role {role!r}")
    return Message.of(cast(Role, role), str(message.get("content", "")))


def judge_output(
    task: BFCLTask, output: str
) -> tuple[list[dict[str, dict[str, Any]]] | None, Verdict]:
    """Decode ``output`` as BFCL does and judge it: ``(calls or None, verdict)``."""
    try:
        calls = decode_calls(output)
    except DecodeError as error:
        if check_kind(task.category) == "irrelevance":
            return None, Verdict.ok(UNDECODED_AS_NO_CALL)
        return None, Verdict.fail(FailureKind.UNPARSABLE, f"cannot decode the output: {error}")
    return calls, check_task(task, calls)


async def run_task(
    model: Model,
    task: BFCLTask,
    *,
    max_tokens: int | None = None,
    temperature: float | None = BFCL_TEMPERATURE,
) -> TaskResult:
    """Prompt ``model`` with ``task`` in BFCL's prompt mode and judge its output."""
    request = request_for(task, max_tokens=max_tokens, temperature=temperature)
    started = time.perf_counter()
    try:
        response = await model.complete(request)
    except Exception as error:  # noqa: BLE001 - a failing model is a result, not a crash
        return TaskResult(
            task.id,
            task.category,
            "",
            None,
            Verdict.fail(FailureKind.MODEL_ERROR, f"{type(error).__name__}: {error}"),
            None,
            None,
            time.perf_counter() - started,
        )
    seconds = time.perf_counter() - started
    calls, verdict = judge_output(task, response.text)
    return TaskResult(
        task.id,
        task.category,
        response.text,
        calls,
        verdict,
        response.usage.input_tokens,
        response.usage.output_tokens,
        seconds,
        response.finish_reason,
    )


async def run_baseline(
    model: Model,
    tasks: Sequence[BFCLTask],
    *,
    max_tokens: int | None = None,
    temperature: float | None = BFCL_TEMPERATURE,
    on_result: Callable[[TaskResult], None] | None = None,
) -> list[TaskResult]:
    """Run :func:`run_task` for each task in turn (the model loaded first, so its loading
    time is in no task's seconds); ``on_result`` sees each result as it comes.
    """
    with contextlib.suppress(Exception):  # each task then reports the model's error
        await model.load()
    results = []
    for task in tasks:
        result = await run_task(model, task, max_tokens=max_tokens, temperature=temperature)
        if on_result is not None:
            on_result(result)
        results.append(result)
    return results


def summarize(results: Sequence[TaskResult]) -> dict[str, dict[str, Any]]:
    """Per category (per ``configuration / category`` when several configurations ran):
    ``tasks``, ``valid``, ``accuracy`` with its 95% Wilson interval, the ``unparsable``
    share, ``undecoded_no_call`` (irrelevance tasks counted valid only because the output
    could not be decoded, as BFCL counts them), the failure kinds counted, the ``copy_rate``
    (calls holding a value copied from an example, of all calls), the ``repair_rate`` (failed
    calls written again correctly, of those asked for), tokens and seconds per task, and the
    token and second totals.
    """
    from gent_eval import wilson_interval

    configs = {result.config for result in results}
    summary: dict[str, dict[str, Any]] = {}
    for result in results:
        key = result.category if len(configs) == 1 else f"{result.config} / {result.category}"
        _count(summary.setdefault(key, _empty_entry()), result)
    for entry in summary.values():
        _finish(entry, wilson_interval)
    return summary


def _empty_entry() -> dict[str, Any]:
    """A category's counts before its first task."""
    return {
        "tasks": 0,
        "valid": 0,
        "failures": Counter(),
        "unparsable": 0,
        "undecoded_no_call": 0,
        "calls": 0,
        "copied_calls": 0,
        "repairs": 0,
        "repaired": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "seconds": 0.0,
    }


def _count(entry: dict[str, Any], result: TaskResult) -> None:
    """Add one task's result to its category's counts."""
    entry["tasks"] += 1
    entry["valid"] += result.verdict.valid
    if result.verdict.kind is not None:
        entry["failures"][result.verdict.kind.value] += 1
    entry["unparsable"] += result.unparsable
    entry["undecoded_no_call"] += result.verdict.undecoded_no_call
    entry["calls"] += len(result.calls or [])
    entry["copied_calls"] += result.copied_calls
    entry["repairs"] += result.repairs
    entry["repaired"] += result.repaired
    entry["input_tokens"] += result.input_tokens or 0
    entry["output_tokens"] += result.output_tokens or 0
    entry["seconds"] += result.seconds


def _finish(entry: dict[str, Any], interval: Callable[[int, int], tuple[float, float]]) -> None:
    """Turn a category's counts into its rates, interval and averages."""
    tasks = entry["tasks"]
    low, high = interval(entry["valid"], tasks)
    entry["accuracy"] = round(entry["valid"] / tasks, 4)
    entry["ci95"] = [round(low, 4), round(high, 4)]
    entry["unparsable_share"] = round(entry["unparsable"] / tasks, 4)
    entry["failures"] = dict(entry["failures"].most_common())
    entry["copy_rate"] = round(entry["copied_calls"] / entry["calls"], 4) if entry["calls"] else 0.0
    entry["repair_rate"] = (
        round(entry["repaired"] / entry["repairs"], 4) if entry["repairs"] else None
    )
    entry["tokens_per_task"] = [
        round(entry["input_tokens"] / tasks),
        round(entry["output_tokens"] / tasks),
    ]
    entry["seconds_per_task"] = round(entry["seconds"] / tasks, 2)
    entry["seconds"] = round(entry["seconds"], 2)

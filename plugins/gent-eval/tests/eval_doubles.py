"""Test doubles for the eval harness: a model scripted per task, plugin registration."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from gent_eval.configs import Configuration, build_configurations

from gent_core import RunResult, RunStats, StepRecord, ToolCallRecord, hookimpl, parse_config
from gent_core.errors import ModelError
from gent_core.model import Model, ModelChunk, ModelRequest
from gent_core.testing import PluginSandbox, ScriptedModel


def call(tool: str, **args: Any) -> str:
    """An xml x json action step calling ``tool``."""
    import json

    payload = json.dumps({"tool": tool, "args": args})
    return f"<thinking>Use {tool}.</thinking><action>{payload}</action>"


def answer(text: str) -> str:
    """An xml answer step."""
    return f"<thinking>Done.</thinking><answer>{text}</answer>"


class Script:
    """What the ``bytask`` models of a test share: the scripts and what happened.

    Args:
        scripts: Task text -> outputs, one per step.
        max_concurrent_requests: The limit the models declare (``None``: none).
        barrier: When set, each call waits until this many calls are in flight (or 5 s).
        fail_load: Loading raises a ModelError.
        hang: Every call waits forever.

    Attributes:
        models: Every model created, in order.
    """

    def __init__(
        self,
        scripts: Mapping[str, Sequence[str]],
        *,
        max_concurrent_requests: int | None = None,
        barrier: int = 0,
        fail_load: bool = False,
        hang: bool = False,
    ) -> None:
        self.scripts = {task: list(outputs) for task, outputs in scripts.items()}
        self.max_concurrent_requests = max_concurrent_requests
        self.barrier = barrier
        self.fail_load = fail_load
        self.hang = hang
        self.in_flight = 0
        self.most_in_flight = 0
        self.calls = 0
        self.models: list[ByTaskModel] = []
        self.full: asyncio.Event | None = None

    def model(self) -> ByTaskModel:
        model = ByTaskModel(self)
        self.models.append(model)
        return model

    @property
    def loaded(self) -> list[ByTaskModel]:
        return [model for model in self.models if model.loads]


class ByTaskModel(Model):
    """Replays, for each task (the first user message), the output of the step it is at."""

    def __init__(self, script: Script) -> None:
        self.script = script
        if script.max_concurrent_requests is not None:
            self.max_concurrent_requests = script.max_concurrent_requests
        self.loads = 0
        self.closes = 0

    async def load(self) -> None:
        self.loads += 1
        if self.script.fail_load:
            raise ModelError("cannot reach the server")

    async def aclose(self) -> None:
        self.closes += 1

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        script = self.script
        task = request.messages[1].text
        step = sum(1 for message in request.messages if message.role == "assistant")
        outputs = script.scripts.get(task, [])
        script.calls += 1
        script.in_flight += 1
        script.most_in_flight = max(script.most_in_flight, script.in_flight)
        try:
            if script.full is None:
                script.full = asyncio.Event()
            if script.barrier and script.in_flight >= script.barrier:
                script.full.set()
            if script.barrier:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(script.full.wait(), 5)
            for _ in range(3):
                await asyncio.sleep(0)
            if script.hang:
                await asyncio.Event().wait()
            text = outputs[step] if step < len(outputs) else "<answer>out of script</answer>"
            async for chunk in ScriptedModel([text]).stream(request):
                yield chunk
        finally:
            script.in_flight -= 1


class Holder:
    """A plugin supplying ``bytask`` models (a new one per build, like a real back end)."""

    def __init__(self, script: Script) -> None:
        self.script = script

    @hookimpl
    def gent_register_models(self) -> dict[str, Any]:
        return {"bytask": self.script.model}


def sandbox(script: Script) -> PluginSandbox:
    """Installed plugins plus the ``bytask`` model."""
    box = PluginSandbox()
    box.load_installed()
    box.register(Holder(script), name="bytask-test")
    return box


def configurations(
    text: str = "model: bytask\nformat: xml\ntoolchain: json\ntools: [calculator]\n",
    axes: Sequence[tuple[str, Sequence[Any]]] = (),
    base_dir: Path | None = None,
) -> list[Configuration]:
    return build_configurations(
        [("agent.yaml", parse_config(text, source="agent.yaml", base_dir=base_dir))], axes
    )


def run_result(
    answer_text: str | None,
    calls: Sequence[ToolCallRecord] = (),
    stop_reason: str = "answer",
) -> RunResult:
    """A finished run: one action step with ``calls``, then the answer."""
    steps = []
    if calls:
        steps.append(StepRecord(1, "...", "action", calls=list(calls)))
    steps.append(StepRecord(len(steps) + 1, "...", "answer", answer=answer_text))
    return RunResult(answer_text, stop_reason, "", steps, RunStats(steps=len(steps)))  # type: ignore[arg-type]


def record(tool: str, output: Any = None, error: str | None = None, **args: Any) -> ToolCallRecord:
    status = "error" if error else "success"
    return ToolCallRecord("1", tool, dict(args), status, output, error)

"""Framework overhead per agent step: gent against LangGraph, LangChain and smolagents.

Every framework runs the same scripted conversation of ``--steps`` model calls (20 by
default): ``steps - 1`` action steps, each calling one trivial tool ``add(a=k, b=1)`` (a
plain ``def``), then one answer step. The models are scripted (they hand back prepared
outputs, no inference) and the tool adds two integers, so a run's wall time is the
frameworks' own work: the loop, messages, parsing, validation, dispatch, events and
bookkeeping. Per framework: the median wall time of whole runs (agent already built) / steps
("run"), minus the time the scripted model itself takes for a run, measured by replaying it
alone ("model"), gives the overhead per step; ratios are peer overhead / gent overhead. The
fastest run is shown too, since a busy machine inflates medians (thread hand-offs most).

Compared in one process, interleaved in rounds so that drift hits every framework alike:

* gent: ``Agent(ScriptedModel, XMLFormat(), JSONToolChain(), tools=[add])`` awaited in one
  event loop. The model writes ``<thinking>``/``<action>``/``<answer>`` text that gent
  streams through its incremental parser; the JSON tool call is read from that text. An
  extra row (info only) uses ``async def add``, which gent runs without a worker thread.
* LangGraph: ``langgraph.prebuilt.create_react_agent`` (sync ``invoke``) over a scripted
  ``BaseChatModel`` whose ``bind_tools`` binds OpenAI-style tool schemas, as real chat
  models do, returning ``AIMessage`` s with native ``tool_calls``, then a plain answer.
* LangChain classic: ``AgentExecutor`` + ``create_tool_calling_agent`` over the same model.
* smolagents: ``ToolCallingAgent`` over a scripted ``Model`` returning ``ChatMessage`` s with
  native tool calls; its answer step calls its ``final_answer`` tool, as it requires.

Two modes:

* whole outputs: each model output arrives in one piece (gent ``chunk_size=0``; the peers'
  non-streaming ``_generate``/``generate`` path);
* streamed: outputs arrive in 5-character chunks that reach the caller as events (gent
  ``chunk_size=5`` with an ``on_event`` callback; LangGraph ``stream_mode="messages"``;
  AgentExecutor with ``streaming=True`` and a token callback; smolagents
  ``stream_outputs=True`` with ``run(stream=True)``). The peers stream their content and
  tool-call argument JSON in the same chunk size; gent's text also holds the markup, so it
  gets about twice as many chunks (printed per run).

Every run is checked, and the script stops when a check fails: the tool ran ``steps - 1``
times with the expected arguments, every call succeeded, the run took ``steps`` model calls
and ended with the scripted answer, and in the streamed mode events reached the caller.

Disabled in the peers during timing: LangSmith tracing (``LANGSMITH_TRACING`` and
``LANGCHAIN_TRACING_V2`` set to ``false``), ``AgentExecutor(verbose=False)``, LangGraph
``debug=False``; smolagents ``verbosity_level=LogLevel.OFF`` with its console (also the
rich ``Live`` view of ``stream_outputs``) writing to ``os.devnull``. smolagents has no
telemetry of its own (OpenTelemetry needs the separate openinference instrumentation, not
installed).

Not counted for anyone: building the agent (graph compilation etc.); converting requests to
an API's wire format (no scripted model does it). Counted as "model" and so subtracted:
building each framework's message objects in the scripted models (for LangChain's streamed
``AIMessageChunk`` with tool-call chunks that is most of the model column); gent's
``ScriptedModel`` also cuts at stop sequences and counts words for usage.

Run: ``python benchmarks/bench_agent.py [--steps N] [--seconds S] [--rounds R] [--profile]``
(``--profile`` adds a cProfile of gent's loop). Peers: ``benchmarks/requirements.txt``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import importlib.util
import io
import os
import platform
import pstats
import statistics
import sys
import time
from importlib import metadata
from pathlib import Path

os.environ["LANGSMITH_TRACING"] = "false"
os.environ["LANGCHAIN_TRACING_V2"] = "false"

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from agent_common import (  # noqa: E402
    CALLS,
    CHUNK,
    REPLAYS,
    TASK,
    THOUGHT,
    WORKDIR,
    Runner,
    answer_text,
    verify,
)
from agent_peers import AgentExecutorRunner, LangGraphRunner, SmolagentsRunner  # noqa: E402
from gent_json.chain import JSONToolChain  # noqa: E402
from gent_xml.format import XMLFormat  # noqa: E402

from gent_core._agent import Agent, AgentEvent, OutputEvent  # noqa: E402
from gent_core.context import Limits  # noqa: E402
from gent_core.model import ModelRequest  # noqa: E402
from gent_core.testing import ScriptedModel  # noqa: E402
from gent_core.tools import tool as gent_tool  # noqa: E402

# ---------------------------------------------------------------------------------- gent


@gent_tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    CALLS.append(a + b)
    return a + b


@gent_tool(name="add")
async def add_async(a: int, b: int) -> int:
    """Add two integers."""
    CALLS.append(a + b)
    return a + b


def gent_script(steps: int) -> list[str]:
    actions = [
        f"<thinking>{THOUGHT}</thinking>\n<action>\n"
        f'{{"tool": "add", "args": {{"a": {k}, "b": 1}}}}\n</action>'
        for k in range(steps - 1)
    ]
    return [*actions, f"<thinking>Done.</thinking>\n<answer>{answer_text(steps)}</answer>"]


class GentRunner(Runner):
    name = "gent"
    tool = add

    def __init__(self, steps: int, chunk: int) -> None:
        super().__init__(steps, chunk)
        self.script = gent_script(steps)
        self.events = 0
        self.requests: list[ModelRequest] = []

    def _agent(self) -> Agent:
        model = ScriptedModel(self.script, chunk_size=self.chunk)
        return Agent(
            model,
            XMLFormat(),
            JSONToolChain(),
            tools=[self.tool],
            limits=Limits(max_steps=self.steps),
            working_directory=WORKDIR.name,
        )

    def _on_event(self, event: AgentEvent) -> None:
        if isinstance(event, OutputEvent):
            self.events += 1

    async def _measure(self, runs: int) -> list[float]:
        times = []
        on_event = self._on_event if self.chunk else None
        for _ in range(runs):
            agent = self._agent()
            CALLS.clear()
            self.events = 0
            started = time.perf_counter()
            result = await agent.run(TASK, on_event=on_event)
            times.append(time.perf_counter() - started)
            verify(result.stop_reason == "answer", f"gent stopped: {result.message}")
            statuses = [c.status for s in result.steps for c in s.calls]
            verify(all(x == "success" for x in statuses), f"gent tool calls: {statuses}")
            verify(not self.chunk or self.events > self.steps, "gent: no streamed events")
            self.check(result.answer, len(result.steps))
            assert isinstance(agent.model, ScriptedModel)
            self.requests = agent.model.requests
        return times

    def measure(self, runs: int) -> list[float]:
        return asyncio.run(self._measure(runs))

    def model_seconds(self) -> float:
        async def replay() -> list[float]:
            times = []
            for _ in range(REPLAYS):
                model = ScriptedModel(self.script, chunk_size=self.chunk)
                chunks = 0
                started = time.perf_counter()
                for request in self.requests:
                    async for piece in model.stream(request):
                        chunks += bool(piece.text)
                times.append(time.perf_counter() - started)
                self.chunks_per_run = chunks
            return times

        return statistics.median(asyncio.run(replay()))


class GentAsyncToolRunner(GentRunner):
    name = "gent, async def tool (info)"
    tool = add_async


# ------------------------------------------------------------------------------- driver

RUNNERS: list[type[Runner]] = [
    GentRunner,
    GentAsyncToolRunner,
    LangGraphRunner,
    AgentExecutorRunner,
    SmolagentsRunner,
]


PEER_MODULES = ("langgraph", "langchain_classic", "smolagents")
"""The modules the peers' runners import (benchmarks/requirements.txt installs them)."""


class Row:
    """One framework's figures in one mode (seconds per step)."""

    def __init__(self, runner: Runner, runs: list[float], model: float) -> None:
        self.runner = runner
        self.run = statistics.median(runs) / runner.steps
        self.best = min(runs) / runner.steps
        self.model = model / runner.steps
        self.overhead = self.run - self.model


def measure_mode(steps: int, chunk: int, seconds: float, rounds: int) -> list[Row]:
    """Median run time per step of every runner, measured in interleaved rounds."""
    runners = [runner_class(steps, chunk) for runner_class in RUNNERS]
    estimate: dict[str, float] = {}
    for runner in runners:  # warm-up, and a first estimate of a run's time
        runner.measure(2)
        estimate[runner.name] = statistics.median(runner.measure(3))
    times: dict[str, list[float]] = {runner.name: [] for runner in runners}
    budget = seconds / rounds / len(runners)
    for _ in range(rounds):
        for runner in runners:
            gc.collect()
            runs = max(3, round(budget / estimate[runner.name]))
            times[runner.name].extend(runner.measure(runs))
    return [Row(runner, times[runner.name], runner.model_seconds()) for runner in runners]


def versions() -> str:
    names = [
        "gent-core",
        "gent-xml",
        "gent-json",
        "langgraph",
        "langgraph-prebuilt",
        "langchain-core",
        "langchain-classic",
        "smolagents",
        "pydantic",
    ]
    found = []
    for name in names:
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found)


def profile_gent(steps: int, chunk: int, runs: int) -> None:
    runner = GentRunner(steps, chunk)
    runner.measure(3)
    profiler = cProfile.Profile()
    profiler.enable()
    runner.measure(runs)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
    print(f"\ncProfile of gent, {runs} runs of {steps} steps, chunk_size={chunk}:")
    print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20, help="model calls per run")
    parser.add_argument(
        "--seconds", type=float, default=15.0, help="timing budget per mode (all frameworks)"
    )
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds per mode")
    parser.add_argument("--profile", action="store_true", help="also cProfile gent's loop")
    options = parser.parse_args()
    steps = options.steps
    if steps < 2:
        parser.error("a run needs at least one action step and the answer step")
    missing = [name for name in PEER_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        sys.exit(
            f"bench_agent compares gent with its peers, and {', '.join(missing)} "
            "is not installed: pip install -r benchmarks/requirements.txt "
            "(python3 dev.py bench does)"
        )

    print(f"Python {platform.python_version()} ({platform.python_implementation()})")
    print(versions())
    print(
        f"{steps} steps per run: {steps - 1} calls of a trivial add(a, b) tool + 1 answer, "
        "scripted models.\nrun = median wall time of whole runs / steps; model = the "
        "scripted model alone, replayed; overhead = run - model (the tool is ~0.1 µs);\n"
        "vs gent = overhead / gent's overhead; best run = fastest run / steps (less "
        "sensitive to a busy machine),\nand its vs gent = (best run - model) / gent's.\n"
    )
    from recorder import Recorder

    record = Recorder(
        "bench_agent",
        "Agent loop: framework overhead per step",
        f"The same scripted conversation of {steps} model calls (a trivial add tool called "
        f"{steps - 1} times, then an answer) in each framework; overhead per step = median "
        "wall time of whole runs / steps, minus the scripted model's own time. Whole outputs, "
        f"and outputs streamed in {CHUNK}-character chunks.",
    )
    modes = [("whole outputs", 0), (f"streamed, {CHUNK}-char chunks", CHUNK)]
    header = (
        f"{'mode':<24} {'framework':<30} {'run':>8} {'model':>7} {'overhead':>9} "
        f"{'vs gent':>8} {'best run':>9} {'vs gent':>8} {'chunks/run':>10}"
    )
    print(header)
    units = f"{'µs/step':>8} {'µs/step':>7} {'µs/step':>9} {'':>8} {'µs/step':>9} {'(best)':>8}"
    print(f"{'':<24} {'':<30} {units}")
    print("-" * len(header))
    verdicts = []
    for label, chunk in modes:
        rows = measure_mode(steps, chunk, options.seconds, options.rounds)
        gent = rows[0]
        for number, row in enumerate(rows):
            ratio = row.overhead / gent.overhead
            best_ratio = (row.best - row.model) / (gent.best - gent.model)
            print(
                f"{label if number == 0 else '':<24} {row.runner.name:<30} "
                f"{row.run * 1e6:>8.1f} {row.model * 1e6:>7.1f} {row.overhead * 1e6:>9.1f} "
                f"{ratio:>7.1f}x {row.best * 1e6:>9.1f} {best_ratio:>7.1f}x "
                f"{row.runner.chunks_per_run:>10}",
                flush=True,
            )
            if not isinstance(row.runner, GentRunner):
                verdicts.append((label, row.runner.name, ratio, best_ratio))
                record.measure(
                    f"overhead per step, {label}",
                    gent.overhead,
                    "s",
                    versus=row.runner.name,
                    other=row.overhead,
                    note=f"best runs: {best_ratio:.1f}x",
                    headline=chunk == 0 and "LangGraph" in row.runner.name,
                )
        print()
    worst = min(ratio for _, _, ratio, _ in verdicts)
    print(
        "Target, gent's overhead at most a tenth of each peer's (every median ratio >= 10x): "
        + ("met" if worst >= 10 else "NOT met")
        + f" (smallest ratio {worst:.1f}x)"
    )
    for label, name, ratio, best_ratio in verdicts:
        if ratio < 10:
            print(f"  below target: {name}, {label}: {ratio:.1f}x (best runs: {best_ratio:.1f}x)")
        record.target(
            f"gent's overhead per step at most a tenth of {name}'s ({label})",
            f"{ratio:.1f}x",
            "met" if ratio >= 10 else "missed",
        )
    record.save()
    if options.profile:
        profile_gent(steps, 0, 50)
        profile_gent(steps, CHUNK, 50)


if __name__ == "__main__":
    main()

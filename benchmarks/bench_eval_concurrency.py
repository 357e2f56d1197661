"""How ``gent eval``'s throughput scales with --concurrency against a local OpenAI-compatible
server: tasks per minute at concurrency 1, 2 and 4 on the same tasks, for two servers, in one
run.

- llama.cpp's own ``llama-server --parallel 4`` (continuous batching: one decode step serves
  every active request, each in its own slot with its own prompt cache). This is a server that
  concurrency can speed up.
- llama-cpp-python's ``llama_cpp.server``, as the comparison. It serves one request at a time
  (one lock, no parallel slots), so all concurrency can gain there is the overlap of one run's
  client-side work (prompt rendering, parsing, tools) with another run's generation.

After its levels, llama-server is also measured alone, without gent: generated tokens per
second with as many plain completions at once as the highest level, against one at a time.
That is the most batching can give on the machine; gent's own CPU time is recorded per level.

Both serve the bundled Gemma 3 270M model with the same threads and context per request
(8,192 tokens; gent's few-shot prompt for this agent is about 1,100 tokens, and each step
adds a few dozen). gent runs xml x json with
the grammar, greedy decoding and at most 128 tokens per step, so the two servers do the same
work.

``llama-server`` is not a Python package: build it from the llama.cpp that llama-cpp-python
vendors (its source distribution holds ``vendor/llama.cpp``)::

    pip download llama-cpp-python==$(pip show llama-cpp-python | sed -n 's/^Version: //p') \\
        --no-deps --no-binary :all: -d /tmp/llsrc
    tar xzf /tmp/llsrc/llama_cpp_python-*.tar.gz -C /tmp/llsrc
    cmake -S /tmp/llsrc/llama_cpp_python-*/vendor/llama.cpp -B /tmp/llsrc/build \\
        -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DGGML_NATIVE=ON \\
        -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_TESTS=OFF
    cmake --build /tmp/llsrc/build --target llama-server -j2   # ~30 min on 2 busy cores

then pass ``--llama-server /tmp/llsrc/build/bin/llama-server`` (or set
``$GENT_LLAMA_SERVER``; a ``llama-server`` on the PATH is found by itself). On a machine busy
with other work, ``--threads 1`` can be much faster than one thread per core (a thread that
loses its core stalls the others at every step).

    python benchmarks/bench_eval_concurrency.py [--tasks 8] [--levels 1,2,4]
        [--llama-server PATH] [--slots 4] [--threads N] [--servers parallel,serial]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from eval_common import gent_config, llama_cpp_server, llama_server, load_tasks, versions
from recorder import Recorder

N_CTX = 8192
"""Context per request (per slot on llama-server), on both servers."""

MAX_TOKENS = 128
"""Token cap per step: a step that runs away costs the same on both servers."""

TARGET_RATIO = 1.5
"""The target: tasks per minute at the highest concurrency at least this times those at 1,
with parallel slots."""


CEILING_TOKENS = 64
"""Tokens per request of the server's own batching probe (plain completions, no gent)."""


@dataclass
class Level:
    """One concurrency level's run: its time, runs, passes, gent's own CPU time (this process:
    prompts, parsing, tools, HTTP) and the machine's load around it."""

    level: int
    seconds: float
    runs: int
    passed: int
    cpu: float
    load: tuple[float, float]

    @property
    def per_minute(self) -> float:
        return 60 * self.runs / self.seconds


@dataclass
class Server:
    """A server under test: its key, how the report names it, and how to start it."""

    key: str
    label: str
    start: Callable[[], AbstractContextManager[str]]


def agent_config(base_url: str) -> str:
    """gent's config for the benchmark: greedy decoding, the token cap, a long read timeout."""
    import yaml

    config = yaml.safe_load(gent_config(base_url))
    # A queued request (llama_cpp.server) gets its first byte only when the ones ahead are done.
    config["model"].update(temperature=0.0, max_tokens=MAX_TOKENS, timeout=600)
    return str(yaml.safe_dump(config, sort_keys=False))


def measure(base_url: str, suite: Any, tasks: Any, level: int) -> Level:
    """Run the tasks at ``level`` concurrency."""
    from gent_eval import EvalRunner, Suite, build_configurations

    from gent_core._config import parse_config

    configs = build_configurations([("server", parse_config(agent_config(base_url)))])
    runner = EvalRunner(Suite(suite.name, suite.path, tuple(tasks)), configs, concurrency=level)
    load_before = os.getloadavg()[0]
    cpu = time.process_time()
    started = time.perf_counter()
    result = asyncio.run(runner.run())
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu
    errors = [record for record in result.records if record.status == "error"]
    if errors:
        raise RuntimeError(f"{len(errors)} runs could not run: {errors[0].error}")
    passed = sum(record.passed for record in result.records)
    load = (load_before, os.getloadavg()[0])
    return Level(level, seconds, len(result.records), passed, cpu, load)


def server_ceiling(base_url: str, requests: int, rounds: int = 2) -> tuple[float, float]:
    """The server's own gain from serving ``requests`` at once, without gent: generated
    tokens per second with ``requests`` plain completions in flight against one at a time
    (``CEILING_TOKENS`` each, end of text ignored; the two alternate ``rounds`` times).
    Returns (tokens/s one at a time, tokens/s with ``requests`` at once)."""
    import json
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    def complete(index: int) -> int:
        body = {
            "prompt": f"Story {index}. Once upon a time, a cat",
            "max_tokens": CEILING_TOKENS,
            "temperature": 0,
            "ignore_eos": True,  # llama-server: every request generates CEILING_TOKENS
        }
        request = urllib.request.Request(
            f"{base_url}/completions",
            json.dumps(body).encode(),
            {"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=600) as response:
            return int(json.load(response)["usage"]["completion_tokens"])

    totals = {1: [0, 0.0], requests: [0, 0.0]}
    with ThreadPoolExecutor(requests) as pool:
        complete(0)  # warm-up
        for _ in range(rounds):
            for width in (1, requests):
                started = time.perf_counter()
                tokens = sum(pool.map(complete, range(width)))
                totals[width][0] += tokens
                totals[width][1] += time.perf_counter() - started
    return totals[1][0] / totals[1][1], totals[requests][0] / totals[requests][1]


def report(title: str, rows: list[Level]) -> None:
    print(f"\n{title}")
    print(
        f"{'concurrency':>11} {'runs':>5} {'passed':>6} {'seconds':>8} {'tasks/min':>9} "
        f"{'vs 1':>6} {'gent CPU':>9} {'load':>11}"
    )
    for row in rows:
        print(
            f"{row.level:>11} {row.runs:>5} {row.passed:>6} {row.seconds:>8.1f} "
            f"{row.per_minute:>9.2f} {row.per_minute / rows[0].per_minute:>5.2f}x "
            f"{row.cpu:>7.1f} s {row.load[0]:>5.2f}-{row.load[1]:<5.2f}"
        )


def find_llama_server(given: str | None) -> str | None:
    """The llama-server binary: ``--llama-server``, ``$GENT_LLAMA_SERVER``, or the PATH's."""
    path = given or os.environ.get("GENT_LLAMA_SERVER") or shutil.which("llama-server")
    if path and not (os.path.isfile(path) and os.access(path, os.X_OK)):
        sys.exit(f"--llama-server: {path} is not an executable file")
    return path


def server_version(binary: str) -> str:
    """``llama-server --version``'s version line (``version: 1 (0c1e570)``)."""
    done = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30)
    lines = (done.stdout + done.stderr).splitlines()
    return next((line.strip() for line in lines if line.startswith("version")), "unknown")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=8, help="first N tasks of the suite")
    parser.add_argument("--levels", default="1,2,4", help="concurrency levels")
    parser.add_argument(
        "--llama-server",
        help="llama.cpp's llama-server binary (default $GENT_LLAMA_SERVER, or on the PATH)",
    )
    parser.add_argument("--slots", type=int, default=4, help="llama-server's parallel slots")
    parser.add_argument(
        "--threads",
        type=int,
        default=os.cpu_count() or 1,
        help="threads of each server (default: the cores; on a machine busy with other work, "
        "fewer threads than cores can be faster)",
    )
    parser.add_argument(
        "--servers",
        default="parallel,serial",
        help="which servers, in order: parallel (llama-server), serial (llama_cpp.server)",
    )
    args = parser.parse_args()
    levels = [int(level) for level in args.levels.split(",")]
    keys = [key.strip() for key in args.servers.split(",") if key.strip()]
    if not keys or set(keys) - {"parallel", "serial"}:
        sys.exit(f"--servers: give parallel, serial or both (got {args.servers!r})")
    cores = os.cpu_count() or 1
    threads = args.threads
    binary = find_llama_server(args.llama_server)
    if "parallel" in keys and binary is None:
        sys.exit(
            "llama-server (llama.cpp's server, with parallel slots) was not found: build it as "
            "this script's docstring says and pass --llama-server PATH or set "
            "$GENT_LLAMA_SERVER (or run only llama_cpp.server with --servers serial)"
        )

    servers = {
        "parallel": Server(
            "parallel",
            f"llama-server --parallel {args.slots}",
            lambda: llama_cpp_server(binary or "", args.slots, N_CTX, threads),
        ),
        "serial": Server(
            "serial", "llama_cpp.server", lambda: llama_server(n_ctx=N_CTX, threads=threads)
        ),
    }
    suite, tasks = load_tasks(args.tasks)
    version = server_version(binary) if binary and "parallel" in keys else ""
    print(f"Python {platform.python_version()}, {cores} cores; {versions()}")
    if version:
        print(f"llama-server {binary}: {version}")
    print(
        f"{len(tasks)} tasks of {suite.path.name}, gent xml x json with grammar, greedy "
        f"decoding, at most {MAX_TOKENS} tokens per step, one run each",
        flush=True,
    )

    record = Recorder(
        "bench_eval_concurrency",
        "gent eval: throughput by concurrency",
        f"{len(tasks)} tasks of {suite.path.name} (xml x json with grammar, greedy decoding, "
        f"at most {MAX_TOKENS} tokens per step) run by gent eval at each concurrency level "
        "against two local servers of the bundled model, one after the other in one run: "
        f"llama.cpp's llama-server with {args.slots} parallel slots (continuous batching) and "
        "llama-cpp-python's llama_cpp.server, which serves one request at a time. Each server "
        "first runs a warm-up (not measured) that fills its prompt caches.",
    )
    results: dict[str, list[Level]] = {}
    ceiling: tuple[float, float] | None = None
    warm = tasks[: max(levels)]
    for key in keys:
        server = servers[key]
        print(f"\n{server.label}:", flush=True)
        with server.start() as url:
            # The first requests fill the prompt caches (every slot's, on llama-server) with
            # the few-shot prefix every prompt shares: without a warm-up, the first level
            # measured would pay for it alone.
            warmup = measure(url, suite, warm, max(levels))
            print(f"  warm-up ({len(warm)} tasks): {warmup.seconds:.1f} s", flush=True)
            rows = results[key] = []
            for level in levels:
                rows.append(measure(url, suite, tasks, level))
                print(f"  concurrency {level}: {rows[-1].seconds:.1f} s", flush=True)
            if key == "parallel":
                ceiling = server_ceiling(url, max(levels))
    for key in keys:
        server = servers[key]
        how = (
            f"{args.slots} slots, continuous batching"
            if key == "parallel"
            else "one request at a time"
        )
        report(f"{server.label} ({threads} thread(s) on {cores} cores; {how})", results[key])
        if key == "parallel" and ceiling:
            print(
                f"  the server alone (plain completions of {CEILING_TOKENS} tokens, no gent): "
                f"{ceiling[0]:.1f} tokens/s one at a time, {ceiling[1]:.1f} with "
                f"{max(levels)} at once ({ceiling[1] / ceiling[0]:.2f}x)"
            )
    save(record, args, servers, results, ceiling, version)


def save(
    record: Recorder,
    args: argparse.Namespace,
    servers: dict[str, Server],
    results: dict[str, list[Level]],
    ceiling: tuple[float, float] | None,
    version: str,
) -> None:
    """Record the figures and targets (``benchmarks/results/bench_eval_concurrency.json``)."""
    from importlib import metadata

    top = max(row.level for rows in results.values() for row in rows)
    for key, rows in results.items():
        label = servers[key].label
        base = rows[0]
        for row in rows[1:]:
            record.measure(
                f"{label}: tasks per minute at concurrency {row.level} "
                f"({row.passed}/{row.runs} passed)",
                row.per_minute,
                "tasks/min",
                versus=f"{label} at concurrency {base.level} ({base.passed}/{base.runs} passed)",
                other=base.per_minute,
                lower_is_better=False,
                note=f"gent's process: {row.cpu:.1f} s CPU vs {base.cpu:.1f} s; load "
                f"{row.load[0]:.1f}-{row.load[1]:.1f} vs {base.load[0]:.1f}-{base.load[1]:.1f}",
                headline=key == "parallel" and row.level == top,
            )
    if "parallel" in results and "serial" in results:
        for level in (results["parallel"][0].level, top):
            fast = next(row for row in results["parallel"] if row.level == level)
            slow = next(row for row in results["serial"] if row.level == level)
            record.measure(
                f"{servers['parallel'].label}: tasks per minute at concurrency {level} "
                f"({fast.passed}/{fast.runs} passed)",
                fast.per_minute,
                "tasks/min",
                versus=f"llama_cpp.server at concurrency {level} ({slow.passed}/{slow.runs} "
                "passed)",
                other=slow.per_minute,
                lower_is_better=False,
            )
    if ceiling:
        record.note(
            f"{servers['parallel'].label} alone, without gent (plain completions of "
            f"{CEILING_TOKENS} tokens): {ceiling[0]:.1f} generated tokens/s one at a time, "
            f"{ceiling[1]:.1f} with {top} at once ({ceiling[1] / ceiling[0]:.2f}x). That is the "
            "server's own gain from batching, the most concurrency can give gent here."
        )
    if version:
        record.note(
            f"llama-server {version}, built from the llama.cpp vendored by llama-cpp-python "
            f"{metadata.version('llama-cpp-python')}; both servers use {args.threads} thread(s) "
            f"(on {os.cpu_count()} cores) "
            f"and {N_CTX} tokens of context per request."
        )

    if "parallel" in results:
        parallel_target(record, servers["parallel"].label, results["parallel"], ceiling)
    if "serial" in results:
        rows = results["serial"]
        ratio = rows[-1].per_minute / rows[0].per_minute
        record.target(
            f"tasks per minute scale from concurrency {rows[0].level} to {rows[-1].level} "
            "against llama_cpp.server started with several parallel slots",
            f"{ratio:.2f}x",
            "retired",
            reason="llama_cpp.server has no parallel slots: one lock serializes every request, "
            "so concurrency only overlaps client-side work with one generation at a time "
            f"(measured: {ratio:.2f}x at concurrency {rows[-1].level})",
            instead="the same scaling against llama.cpp's llama-server with parallel slots",
        )
    record.save()


def parallel_target(
    record: Recorder, label: str, rows: list[Level], ceiling: tuple[float, float] | None
) -> None:
    """The verdict on the scaling with parallel slots. Below the target, it is retired when
    the server alone gains less than the target from batching (nothing gent does can beat
    that), and missed otherwise."""
    ratio = rows[-1].per_minute / rows[0].per_minute
    goal = (
        f"with parallel slots ({label}), tasks per minute at concurrency {rows[-1].level} at "
        f"least {TARGET_RATIO}x those at {rows[0].level}"
    )
    if ratio >= TARGET_RATIO:
        record.target(goal, f"{ratio:.2f}x", "met")
        return
    top = rows[-1]
    why = (
        f"gent's own process used {top.cpu:.1f} s of CPU in {top.seconds:.1f} s at "
        f"concurrency {top.level}, so the server's generation is the bound"
    )
    if ceiling is None:
        record.target(goal, f"{ratio:.2f}x", "missed", reason=why)
        return
    gain = ceiling[1] / ceiling[0]
    server = (
        f"the server alone gains {gain:.2f}x in generated tokens per second from "
        f"{top.level} requests at once (plain completions, same run)"
    )
    if gain < TARGET_RATIO:
        record.target(
            goal,
            f"{ratio:.2f}x",
            "retired",
            reason=f"on this machine {server}; {why}",
            instead=f"gent's scaling ({ratio:.2f}x) next to the server's own ({gain:.2f}x)",
        )
    else:
        record.target(goal, f"{ratio:.2f}x", "missed", reason=f"{server}; {why}")


if __name__ == "__main__":
    main()

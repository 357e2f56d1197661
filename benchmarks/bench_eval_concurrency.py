"""How ``gent eval``'s throughput scales with --concurrency against a local OpenAI-compatible
server: tasks per minute at concurrency 1, 2 and 4, on the same server and tasks, in one run.

The server is llama-cpp-python's ``llama_cpp.server`` on the bundled Gemma 3 270M model. It
serves one request at a time (one lock; no parallel slots), so what concurrency can gain there
is the overlap of one run's client-side work (prompt rendering, parsing, tools) with another
run's generation. Measured on a 2-core machine, the run-to-run variation of the model's
outputs (a step that runs to the token cap costs many times one that stops early, and the
server's prompt cache makes even greedy outputs differ between runs) was larger than any
effect of concurrency: see the figures in the report of issue 12. A server with parallel
slots (llama.cpp's own ``llama-server --parallel N``) is what concurrency can speed up.

    python benchmarks/bench_eval_concurrency.py [--tasks 8] [--levels 1,2,4]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import time
from typing import Any

from eval_common import gent_config, llama_server, load_tasks, versions


def measure(base_url: str, suite: Any, tasks: Any, level: int) -> tuple[float, int, int]:
    """Run the tasks at ``level`` concurrency; return (seconds, runs, passed)."""
    from gent_core.config import parse_config
    from gent_core.eval import EvalRunner, Suite, build_configurations

    # A queued request gets its first byte only when the requests ahead of it are done.
    text = gent_config(base_url).replace(
        "  api: completions\n", "  api: completions\n  timeout: 600\n"
    )
    configs = build_configurations([("server", parse_config(text))])
    runner = EvalRunner(Suite(suite.name, suite.path, tuple(tasks)), configs, concurrency=level)
    started = time.perf_counter()
    result = asyncio.run(runner.run())
    seconds = time.perf_counter() - started
    errors = [record for record in result.records if record.status == "error"]
    if errors:
        raise RuntimeError(f"{len(errors)} runs could not run: {errors[0].error}")
    return seconds, len(result.records), sum(record.passed for record in result.records)


def report(title: str, rows: list[tuple[int, float, int, int]]) -> None:
    print(f"\n{title}")
    print(
        f"{'concurrency':>11} {'runs':>5} {'passed':>6} {'seconds':>8} {'tasks/min':>9} {'vs 1':>6}"
    )
    base = None
    for level, seconds, runs, passed in rows:
        per_minute = 60 * runs / seconds
        base = base or per_minute
        print(
            f"{level:>11} {runs:>5} {passed:>6} {seconds:>8.1f} {per_minute:>9.1f} "
            f"{per_minute / base:>5.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=8, help="first N tasks of the suite")
    parser.add_argument("--levels", default="1,2,4", help="concurrency levels")
    args = parser.parse_args()
    levels = [int(level) for level in args.levels.split(",")]
    suite, tasks = load_tasks(args.tasks)
    cores = os.cpu_count() or 1
    print(f"Python {platform.python_version()}, {cores} cores; {versions()}")
    print(
        f"{len(tasks)} tasks of {suite.path.name}, gent xml x json with grammar, greedy "
        "decoding, at most 128 tokens per step, one run each",
        flush=True,
    )

    with llama_server() as url:
        rows = []
        for level in levels:
            rows.append((level, *measure(url, suite, tasks, level)))
            print(f"  concurrency {level}: {rows[-1][1]:.1f} s", flush=True)
    report(f"one llama_cpp.server ({cores} threads; it serves one request at a time)", rows)
    from recorder import Recorder

    record = Recorder(
        "bench_eval_concurrency",
        "gent eval: throughput by concurrency",
        f"{len(tasks)} tasks of {suite.path.name} (xml x json with grammar, greedy decoding) "
        "run by gent eval against one llama_cpp.server on the bundled model, at each "
        "concurrency level. The server serves one request at a time, so concurrency can only "
        "overlap one run's client-side work with another's generation.",
    )
    base_level, base_seconds, base_runs, _ = rows[0]
    for level, seconds, runs, passed in rows[1:]:
        record.measure(
            f"tasks per minute at concurrency {level} ({passed}/{runs} passed)",
            60 * runs / seconds,
            "tasks/min",
            versus=f"concurrency {base_level}",
            other=60 * base_runs / base_seconds,
            lower_is_better=False,
            headline=level == rows[-1][0],
        )
    record.save()


if __name__ == "__main__":
    main()

"""How ``gent eval``'s throughput scales with --concurrency against a local OpenAI-compatible
server: tasks per minute at concurrency 1, 2 and 4, on the same server and tasks, in one run.

The server is llama-cpp-python's ``llama_cpp.server`` on the bundled Gemma 3 270M model. It
serves one request at a time (one lock; no parallel slots), so what concurrency can gain there
is the overlap of one run's client-side work (prompt rendering, parsing, tools) with another
run's generation. ``--pool 2`` also measures two server processes (each with half the cores)
behind a least-busy proxy: a back end that really serves two requests at once.

    python benchmarks/bench_eval_concurrency.py [--tasks 8] [--levels 1,2,4] [--pool 2]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import time
from collections.abc import Iterator
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


@contextlib.contextmanager
def proxy(backends: list[str]) -> Iterator[str]:
    """A least-busy reverse proxy (streaming) in front of several servers; yield its URL."""
    import threading

    import httpx
    import uvicorn
    from eval_common import free_port
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    busy = dict.fromkeys(backends, 0)
    client = httpx.AsyncClient(timeout=None)

    async def forward(request: Request) -> Response:
        backend = min(busy, key=busy.__getitem__)
        busy[backend] += 1
        url = backend + "/" + request.path_params["path"]
        upstream = client.build_request(
            request.method,
            url,
            content=await request.body(),
            headers={"content-type": request.headers.get("content-type", "application/json")},
        )
        response = await client.send(upstream, stream=True)

        async def body() -> Any:
            try:
                async for chunk in response.aiter_raw():
                    yield chunk
            finally:
                await response.aclose()
                busy[backend] -= 1

        return StreamingResponse(
            body(),
            status_code=response.status_code,
            media_type=response.headers.get("content-type"),
        )

    app = Starlette(routes=[Route("/v1/{path:path}", forward, methods=["GET", "POST"])])
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


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
    parser.add_argument("--pool", type=int, default=2, help="servers behind the proxy (0: skip)")
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

    if args.pool > 1:
        threads = max(cores // args.pool, 1)
        with contextlib.ExitStack() as stack:
            urls = [stack.enter_context(llama_server(threads=threads)) for _ in range(args.pool)]
            front = stack.enter_context(proxy(urls))
            rows = []
            for level in levels:
                rows.append((level, *measure(front, suite, tasks, level)))
                print(f"  concurrency {level}: {rows[-1][1]:.1f} s", flush=True)
        report(
            f"{args.pool} llama_cpp.server processes ({threads} thread(s) each) behind a "
            "least-busy proxy",
            rows,
        )


if __name__ == "__main__":
    main()

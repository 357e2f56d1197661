"""The run history: logging runs, and searching 1,000 of them with ``gent logs -q``.

1. Logging: 1,000 agent runs on the scripted model (one tool call, then the answer), each
   logged by the recorder gent-history attaches to ``gent run`` (``record_runs``), into a
   fresh database; the time per run with logging against the same runs without it.
2. Search: ``gent logs -q WORD --json`` over those 1,000 runs (full-text search over tasks
   and answers, SQLite FTS5), in-process through the CLI's ``main()`` (parsing, opening the
   database, the query, strict JSON output), median of repeated calls; target under 100 ms.
   The query alone (on an open database) and the same command as a separate process are
   reported too: the process figure is mostly Python's start and gent's imports.

Run: ``python benchmarks/bench_history.py [--runs N] [--repeats N]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gent_history.recorder import record_runs  # noqa: E402
from gent_json import JSONToolChain  # noqa: E402
from gent_tools_basic import calculator  # noqa: E402
from gent_xml.format import XMLFormat  # noqa: E402
from recorder import Recorder  # noqa: E402

from gent_core._agent import Agent  # noqa: E402
from gent_core._cli.main import main  # noqa: E402
from gent_core.testing import ScriptedModel  # noqa: E402

_VOCABULARY = (
    "invoice total customer order shipping refund price tax discount report weather city "
    "river mountain recipe flour sugar planet orbit engine battery voltage sensor garden "
    "letter poem chapter library museum ticket flight hotel budget salary meeting agenda"
)
WORDS = tuple(_VOCABULARY.split())
RARE = "zeppelin"
"""The word searched for: in about one task in a hundred."""

CALL = '<action>{"tool": "calculator", "args": {"expression": "17*23"}}</action>'


def _task(rng: random.Random, index: int) -> str:
    words = rng.choices(WORDS, k=12)
    if index % 100 == 7:
        words[rng.randrange(len(words))] = RARE
    return " ".join(words).capitalize() + "?"


async def _runs(count: int, *, logged: bool, seed: int) -> float:
    """Run ``count`` agents (logged or not); return the seconds per run."""
    rng = random.Random(seed)
    started = time.perf_counter()
    for index in range(count):
        answer = " ".join(rng.choices(WORDS, k=6))
        agent = Agent(
            ScriptedModel([CALL, f"<answer>{answer}</answer>"]),
            XMLFormat(),
            JSONToolChain(),
            tools=[calculator],
        )
        recorder = record_runs(agent) if logged else None
        result = await agent.run(_task(rng, index))
        assert result.ok, result.message
        if recorder is not None:
            assert recorder.run_id is not None and not recorder.failed
            recorder.close()
    return (time.perf_counter() - started) / count


def _search_in_process(repeats: int) -> tuple[float, int]:
    """Median seconds of ``gent logs -q RARE --json`` through ``main()``; runs found."""
    times = []
    found = 0
    for _ in range(repeats):
        out = io.StringIO()
        started = time.perf_counter()
        with contextlib.redirect_stdout(out):
            code = main(["logs", "-q", RARE, "-n", "0", "--json"])
        times.append(time.perf_counter() - started)
        assert code == 0
        found = out.getvalue().count('"conversation_id"')
    return statistics.median(times), found


def _search_query(repeats: int) -> float:
    """Median seconds of the search alone: the store's query, on an open database."""
    from gent_history.paths import database_path
    from gent_history.store import HistoryStore

    times = []
    with HistoryStore(database_path()) as store:
        for _ in range(repeats):
            started = time.perf_counter()
            store.list_runs(query=RARE, limit=None)
            times.append(time.perf_counter() - started)
    return statistics.median(times)


def _search_process(repeats: int) -> float:
    """Median wall seconds of ``gent logs -q RARE --json`` as a new process."""
    command = [sys.executable, "-m", "gent_core", "logs", "-q", RARE, "--json"]
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main_bench() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="runs to log (default 1000)")
    parser.add_argument("--repeats", type=int, default=21, help="searches timed (median)")
    options = parser.parse_args()
    record = Recorder(
        "bench_history",
        "Run history: logging runs and searching them",
        f"{options.runs} scripted agent runs logged by the gent run recorder into a fresh "
        "SQLite database (WAL; one connection and one writer thread for the process, the "
        "records queued while the writer is busy in one transaction); then "
        "`gent logs -q WORD --json` "
        "(FTS5 over tasks and answers) in-process through the CLI's main(), median of "
        f"{options.repeats}.",
    )
    with tempfile.TemporaryDirectory(prefix="gent-bench-history-") as home:
        os.environ["GENT_HOME"] = home
        baseline = asyncio.run(_runs(max(options.runs // 10, 20), logged=False, seed=1))
        per_run = asyncio.run(_runs(options.runs, logged=True, seed=2))
        size = (Path(home) / "logs.db").stat().st_size
        searched, found = _search_in_process(options.repeats)
        query = _search_query(options.repeats)
        process = _search_process(max(options.repeats // 4, 3))
    print(f"one run, not logged:           {baseline * 1000:8.2f} ms")
    print(f"one run, logged:               {per_run * 1000:8.2f} ms")
    print(f"database after {options.runs} runs:    {size / 1024:8.0f} KiB")
    print(f"gent logs -q {RARE} (main):    {searched * 1000:8.2f} ms  ({found} runs found)")
    print(f"gent logs -q {RARE} (process): {process * 1000:8.2f} ms")
    print(f"the query alone:               {query * 1000:8.2f} ms")
    record.measure(
        "a scripted run (a tool call and an answer), logged",
        per_run,
        "s",
        versus="the same run, not logged",
        other=baseline,
        note="four records per run, in two write transactions or more; the process's "
        "connection is opened once and closed (checkpointed) at exit, not per run",
    )
    record.measure(
        f"`gent logs -q WORD --json` over {options.runs} logged runs, in-process",
        searched,
        "s",
        note=f"main(); {found} runs matched; database {size // 1024} KiB",
        headline=True,
    )
    record.measure(
        f"the full-text query alone over {options.runs} logged runs",
        query,
        "s",
        note="HistoryStore.list_runs on an open database: the rest of main() is the CLI",
    )
    record.measure(
        f"`gent logs -q WORD --json` over {options.runs} logged runs, a new process",
        process,
        "s",
        note="mostly the interpreter's start and gent's imports",
    )
    met = searched < 0.1
    record.target(
        f"`gent logs -q WORD` over {options.runs} logged runs under 100 ms (in-process)",
        f"{searched * 1000:.1f} ms",
        "met" if met else "missed",
    )
    record.save()
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main_bench())

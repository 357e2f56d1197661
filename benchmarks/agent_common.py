"""Shared pieces of the agent benchmark: the scripted task, checks and the Runner base."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ["LANGSMITH_TRACING"] = "false"
os.environ["LANGCHAIN_TRACING_V2"] = "false"

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


TASK = "Add one to each number from 0 upwards, then report the last sum."
THOUGHT = "I will call add."
CHUNK = 5
REPLAYS = 15
WORKDIR = tempfile.TemporaryDirectory(prefix="bench-agent-")  # removed at exit

# Every framework's tool appends its result here: the check that the tool really ran.
CALLS: list[int] = []


def verify(condition: bool, message: str) -> None:
    """Stop the benchmark when a framework did not do the scripted work."""
    if not condition:
        raise RuntimeError(f"check failed: {message}")


def answer_text(steps: int) -> str:
    return f"The last sum was {steps - 1}."


def expected_calls(steps: int) -> list[int]:
    return [k + 1 for k in range(steps - 1)]


def pieces(text: str, size: int) -> list[str]:
    """``text`` cut in ``size``-character pieces (whole when ``size`` is 0)."""
    if not size:
        return [text]
    return [text[start : start + size] for start in range(0, len(text), size)]


class Runner(ABC):
    """One framework in one mode: ``measure(runs)`` returns the wall time of each run."""

    name = ""

    def __init__(self, steps: int, chunk: int) -> None:
        self.steps = steps
        self.chunk = chunk
        self.chunks_per_run = 0

    @abstractmethod
    def measure(self, runs: int) -> list[float]:
        """Run the agent ``runs`` times, checking each run; the wall time of each."""

    @abstractmethod
    def model_seconds(self) -> float:
        """Median time the scripted model itself takes for one run (replayed alone)."""

    def median_replay(self, replay: Callable[[], int], replays: int = REPLAYS) -> float:
        """Median time of ``replay()``, which returns the chunks produced."""
        times = []
        for _ in range(replays):
            started = time.perf_counter()
            self.chunks_per_run = replay()
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    def check(self, answer: Any, steps_taken: int) -> None:
        expected = expected_calls(self.steps)
        verify(expected == CALLS, f"{self.name}: tool calls {CALLS} != {expected}")
        verify(str(answer) == answer_text(self.steps), f"{self.name}: answer {answer!r}")
        verify(steps_taken == self.steps, f"{self.name}: {steps_taken} steps, not {self.steps}")

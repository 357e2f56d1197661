"""How many CPU threads the ``llamacpp`` model uses when the options leave it to gent.

llama.cpp splits the work of each step among its threads, which meet at a barrier after every
operation. The default is every core this process may run on (its CPU affinity: ``taskset``
and container CPU sets count), for the prompt and for generation alike, whatever the load.

Why not fewer threads on a busy machine: ``benchmarks/bench_llamacpp_threads.py`` measured 1
thread, all threads, and all threads for the prompt with one for generation, on a 2-core
machine at 1-minute load averages from 8 to 18 (other programs, spin loops, other llama.cpp
processes on every core). All threads was within 0.84 of the best setting for a whole call at
every load; one thread fell to 0.58 (the scheduler gives a process with more runnable threads
more of the machine) and the split to 0.65 (its one-thread generation was the slowest of all).
The table is in ``docs/models.md``. Reading the load average therefore decides nothing, and
nothing here reads a clock: the choice depends only on the cores.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["Threads", "available_cores", "default_threads", "resolve_threads"]


@dataclass(frozen=True)
class Threads:
    """The CPU threads of one loaded model.

    Attributes:
        generation: Threads that generate (one token at a time): llama.cpp's ``n_threads``.
        batch: Threads that evaluate the prompt's batches: llama.cpp's ``n_threads_batch``.
    """

    generation: int
    batch: int

    def describe(self) -> str:
        """``"2"`` when both are the same, else ``"1, prompt 2"``."""
        if self.generation == self.batch:
            return str(self.generation)
        return f"{self.generation}, prompt {self.batch}"


def available_cores() -> int:
    """The cores this process may run on: its CPU affinity where the system reports one,
    else the machine's CPU count.
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no sched_getaffinity (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def default_threads(cores: int) -> Threads:
    """The threads for a process that may run on ``cores`` cores: all of them, for the
    prompt and for generation.
    """
    count = max(1, cores)
    return Threads(generation=count, batch=count)


def resolve_threads(n_threads: int | None, n_threads_batch: int | None, *, cores: int) -> Threads:
    """The threads for the options ``n_threads`` and ``n_threads_batch``: each one set is
    used as it is (``n_threads`` alone sets both, as before ``n_threads_batch`` existed); the
    rest come from :func:`default_threads` for ``cores``.
    """
    chosen = default_threads(cores)
    generation = n_threads if n_threads is not None else chosen.generation
    if n_threads_batch is not None:
        batch = n_threads_batch
    elif n_threads is not None:
        batch = n_threads
    else:
        batch = chosen.batch
    return Threads(generation=generation, batch=batch)

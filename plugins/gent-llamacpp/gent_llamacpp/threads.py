"""How many CPU threads the ``llamacpp`` model uses when the options leave it to gent.

llama.cpp splits each step's work among its threads and waits for the slowest one; when other
programs hold the cores, a thread that is not running holds up the others, which spin while
they wait. PLACEHOLDER: the rule is written after the measurement.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["Threads", "available_cores", "choose_threads", "current_load", "resolve_threads"]


@dataclass(frozen=True)
class Threads:
    """The threads of one loaded model.

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
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def current_load() -> float | None:
    """The machine's 1-minute load average (``None`` where the system has none)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def choose_threads(cores: int, load: float | None) -> Threads:
    """The threads for a machine with ``cores`` cores at 1-minute load average ``load``."""
    busy = 0 if load is None else round(load)
    threads = max(1, cores - busy)
    return Threads(generation=threads, batch=threads)


def resolve_threads(
    n_threads: int | None, n_threads_batch: int | None, *, cores: int, load: float | None
) -> Threads:
    """The threads for the options ``n_threads`` and ``n_threads_batch``: each one set is
    used as it is (``n_threads`` alone sets both, as llama.cpp does); the rest come from
    :func:`choose_threads` for ``cores`` and ``load``.
    """
    auto = choose_threads(cores, load)
    generation = n_threads if n_threads is not None else auto.generation
    if n_threads_batch is not None:
        batch = n_threads_batch
    elif n_threads is not None:
        batch = n_threads
    else:
        batch = auto.batch
    return Threads(generation=generation, batch=batch)

"""Linear-time checks with CPU-time ratios (never wall-clock thresholds).

Both input sizes are measured in the same run, interleaved, keeping the best of several runs
of each: time spent preempted by other processes on a busy machine does not count (CPU time),
and what remains affects both sizes alike. Only the ratio is checked, with a bound that only
super-linear behaviour can break.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["assert_linear", "best_cpu_times"]


def best_cpu_times(
    small: Callable[[], object], large: Callable[[], object], *, repeats: int = 3
) -> tuple[float, float]:
    """The best CPU time (``time.process_time``) of each callable over ``repeats`` runs."""
    best = [float("inf"), float("inf")]
    for _ in range(repeats):
        for index, run in enumerate((small, large)):
            start = time.process_time()
            run()
            best[index] = min(best[index], time.process_time() - start)
    return best[0], best[1]


def assert_linear(
    make: Callable[[int], str],
    run: Callable[[str], object],
    *,
    size: int = 5 * 1024,
    factor: int = 10,
    bound: float = 30.0,
    label: str = "",
) -> None:
    """Assert that ``run`` on an input ``factor`` times larger costs less than ``bound``
    times more CPU time (linear work gives about ``factor``; quadratic about ``factor**2``).

    Args:
        make: Builds an input of the given length.
        run: Processes one input.
        size: The smaller input's length.
        factor: How much larger the larger input is.
        bound: The largest ratio accepted.
        label: Names the input in the failure message.
    """
    small, large = make(size), make(size * factor)
    small_time, large_time = best_cpu_times(lambda: run(small), lambda: run(large))
    ratio = large_time / max(small_time, 1e-6)
    assert ratio < bound, (
        f"{label or 'input'}: {len(small)} chars took {small_time:.5f}s of CPU, "
        f"{len(large)} chars {large_time:.5f}s: ratio {ratio:.1f} (limit {bound})"
    )

"""Linear-work checks by counting interpreter steps (never by reading a clock).

A clock measures the machine as much as the code: on a loaded machine the same run costs a
different number of seconds each time. A step count does not change with the load, so a test
built on it fails only when the code changes.

:func:`count_steps` runs a callable under a tracer and counts what the interpreter did for it:
every line of Python executed and every call into a C function (a ``str`` method, a compiled
regular expression, a builtin), in the calling thread. Work done inside one C call (one
``str.find`` over a long text, one regular-expression match) counts as one step; a component
whose cost lives there can pass a counter of its own (``steps=``) that counts what it scans.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

__all__ = ["assert_linear", "count_steps"]

StepCounter = Callable[[Callable[[], object]], int]
"""Runs a callable and returns the number of steps it took (the type of ``steps=``)."""


class _Tracer:
    """Counts Python lines (through ``sys.settrace``) and C calls (``sys.setprofile``)."""

    def __init__(self) -> None:
        self.steps = 0

    def trace(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        self.steps += 1
        return self.trace

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "c_call":
            self.steps += 1


def count_steps(run: Callable[[], object]) -> int:
    """The number of interpreter steps ``run()`` takes: the lines of Python it executes and the
    calls into C functions it makes, in this thread. Deterministic: the same code on the same
    input gives the same count on any machine, at any load.

    An exception raised by ``run`` propagates after the tracer is removed. A tracer or profiler
    already installed (a debugger, coverage) is suspended meanwhile and put back after.
    """
    tracer = _Tracer()
    previous_trace, previous_profile = sys.gettrace(), sys.getprofile()
    sys.setprofile(tracer.profile)
    sys.settrace(tracer.trace)
    try:
        run()
    finally:
        sys.settrace(previous_trace)
        sys.setprofile(previous_profile)
    return tracer.steps


def assert_linear(
    make: Callable[[int], str],
    run: Callable[[str], object],
    *,
    size: int = 2 * 1024,
    factor: int = 10,
    bound: float = 30.0,
    label: str = "",
    steps: StepCounter = count_steps,
) -> None:
    """Assert that ``run`` on an input ``factor`` times larger takes less than ``bound`` times
    more steps (linear work gives about ``factor``; quadratic work about ``factor**2``).

    Steps are counted, not timed (:func:`count_steps` by default), so the check gives the
    same answer on a busy machine as on an idle one. ``run`` is called once on the smaller
    input before counting, so one-time work (an import, a pattern compiled and cached) is not
    counted as the input's cost.

    Args:
        make: Builds an input of the given length.
        run: Processes one input.
        size: The smaller input's length.
        factor: How much larger the larger input is.
        bound: The largest ratio of step counts accepted.
        label: Names the input in the failure message.
        steps: Runs a callable and returns the steps it took; :func:`count_steps` by default.
            Pass a counter of your own when the work lives in C code the default cannot see
            into (for example one that returns how many characters your scanner examined).
    """
    small, large = make(size), make(size * factor)
    run(small)  # one-time work (imports, compiled patterns, caches) is not the input's cost
    small_steps = steps(lambda: run(small))
    large_steps = steps(lambda: run(large))
    ratio = large_steps / max(small_steps, 1)
    assert ratio < bound, (
        f"{label or 'input'}: {len(small)} chars took {small_steps} steps, "
        f"{len(large)} chars {large_steps} steps: ratio {ratio:.1f} (limit {bound})"
    )

"""Linear time on adversarial input: 100 KB must cost about 10x what 10 KB costs, not 100x.

Not a timing benchmark: both sizes are measured in the same run and only their ratio is
checked, with a generous bound (20x) that only quadratic behaviour can break.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import pytest
from gent_xml import XMLFormat

from gent_core.errors import NoSectionsFoundError

NAMES = ["thinking", "action", "answer"]
KB = 1024


def repeat(unit: str, prefix: str = "") -> Callable[[int], str]:
    def make(size: int) -> str:
        body = unit * (size // len(unit) + 1)
        return (prefix + body)[:size]

    return make


ADVERSARIAL = {
    "a<a<a": repeat("<a"),
    "unclosed <thinking>": repeat("<thinking>"),
    "would-be tags without >": repeat("<thinking "),
    "attributes never closed": repeat("<action x=\"1\" y='2' ", ""),
    "</ inside a section": repeat("</thinkin", "<thinking>"),
    "closing tags of other sections": repeat("</answer>", "<thinking>"),
    "unterminated CDATA": repeat("]] ]", "<answer><![CDATA["),
    "< and ] soup": repeat("<<]]/>"),
}


def best_times(small: Callable[[], object], large: Callable[[], object]) -> tuple[float, float]:
    """CPU time, best of 5 runs each, interleaved: time spent preempted by other processes on a
    busy machine does not count, and what remains affects both sizes alike."""
    best = [float("inf"), float("inf")]
    for _ in range(5):
        for index, run in enumerate((small, large)):
            start = time.process_time()
            run()
            best[index] = min(best[index], time.process_time() - start)
    return best[0], best[1]


def parse_once(fmt: XMLFormat, text: str) -> None:
    with contextlib.suppress(NoSectionsFoundError):
        fmt.parse(text, NAMES)


def parse_streaming(fmt: XMLFormat, text: str) -> None:
    parser = fmt.incremental_parser(NAMES)
    for pos in range(0, len(text), 5):
        parser.feed(text[pos : pos + 5])
    parser.close()


@pytest.mark.parametrize("make", ADVERSARIAL.values(), ids=list(ADVERSARIAL))
@pytest.mark.parametrize("mode", [parse_once, parse_streaming], ids=["parse", "stream"])
def test_time_grows_linearly(
    make: Callable[[int], str], mode: Callable[[XMLFormat, str], None]
) -> None:
    fmt = XMLFormat()
    small, large = make(10 * KB), make(100 * KB)
    small_time, large_time = best_times(lambda: mode(fmt, small), lambda: mode(fmt, large))
    ratio = large_time / max(small_time, 1e-6)
    assert ratio < 20, f"10 KB: {small_time:.5f}s, 100 KB: {large_time:.5f}s, ratio {ratio:.1f}"

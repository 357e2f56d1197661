"""Reading is linear in the input, also on adversarial input (interpreter steps counted, as
the conformance kit counts them: no clock is read)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from gent_pythonic import PythonicToolChain
from gent_pythonic.guard import SAFE_CODE_CHARS

from gent_core.errors import ParseError
from gent_core.testing import KIT_TOOLS, assert_linear

CHAIN = PythonicToolChain(KIT_TOOLS)


def repeat(unit: str, suffix: str = "", prefix: str = "") -> Callable[[int], str]:
    """Build an input of about ``size`` characters from ``unit`` repeated."""
    return lambda size: prefix + unit * max(1, size // len(unit)) + suffix


def read(text: str) -> object:
    try:
        return CHAIN.parse(text)
    except ParseError as error:
        return error


INPUTS = {
    # many complete calls, one per line
    "calls": repeat('calculator(expression="17 * 23")\n'),
    # the list form, all on one line
    "list": repeat("clock(), ", prefix="[", suffix="]"),
    # one call holding a long string full of escapes and quotes
    "escapes": repeat('\\"\\\\x\\n', prefix='write_file(path="a", content="', suffix='")'),
    # a long triple-quoted string with lines
    "triple": repeat("line of text\n", prefix='write_file(path="a", content="""', suffix='""")'),
    # a call holding many values
    "values": repeat('{"x": 1.5, "y": -2}, ', prefix="plot(points=[", suffix="])"),
    # prose lines that mention tools without calling them
    "prose": repeat("The calculator and search tools, and calculator words.\n"),
    # lines that each start like a call but are prose
    "near calls": repeat("calculator is ( not a call\n"),
    # comment lines and fences
    "comments": repeat("# calculator(expression='1')\n```\n"),
    # openers of lists that never hold calls
    "brackets": repeat("[ ( [ {\n"),
    # a call that is never closed (cut off)
    "cut off": repeat("[1, (2, {", prefix="plot(points="),
    # a string that is never closed (cut off)
    "open string": repeat("x \\' ", prefix="calculator(expression='"),
    # a long dotted name
    "dotted": repeat("a.", suffix="b(x=1)"),
    # a long name-like line without a parenthesis
    "name": repeat("abc_", suffix=" and prose"),
    # one deep but allowed nesting per line
    "nesting": repeat("plot(points=" + "[" * 90 + "]" * 90 + ")\n"),
}


# Both sizes above the size from which Python 3.10 tokenizes a call before parsing it (a
# step in cost per character, not a change of growth).
SIZES = {"values": 2 * SAFE_CODE_CHARS}
SIZE = 1024
"""The smaller input of the others: steps are counted, so 1 KiB against 10 KiB shows the growth
(a ratio of 6 to 10 where linear, about 100 where quadratic) as well as larger inputs would."""


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_reading_is_linear(name: str) -> None:
    assert_linear(INPUTS[name], read, size=SIZES.get(name, SIZE), label=name)


def test_format_calls_is_linear() -> None:
    from gent_core.toolchain import ToolCall

    def make(size: int) -> str:
        return "x" * size

    def write(text: str) -> object:
        calls = [ToolCall("write_file", {"path": "a", "content": text[: len(text) // 2]})] * 2
        return CHAIN.format_calls(calls)

    assert_linear(make, write, size=50_000, label="format_calls")

"""Bounded line reading (gent_core._lines): every line end, any chunking, the bound exact."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable

import pytest

from gent_core._lines import LineTooLongError, bounded_lines


def read(pieces: Iterable[str], limit: int) -> list[str]:
    async def chunks() -> AsyncIterator[str]:
        for piece in pieces:
            yield piece

    async def run() -> list[str]:
        return [line async for line in bounded_lines(chunks(), limit)]

    return asyncio.run(run())


TEXT = "one\r\ntwo\nthree\rfour\r\n\nlast"
LINES = ["one", "two", "three", "four", "", "last"]


@pytest.mark.parametrize("size", [1, 2, 3, 5, len(TEXT)])
def test_lines_end_at_crlf_lf_or_cr_however_the_text_is_cut(size: int) -> None:
    pieces = [TEXT[start : start + size] for start in range(0, len(TEXT), size)]
    assert read(pieces, 10) == LINES


def test_no_other_character_ends_a_line() -> None:
    assert read(["a\u2028b\x0cc\n"], 10) == ["a\u2028b\x0cc"]


def test_a_line_of_exactly_the_bound_is_read_and_one_more_character_is_refused() -> None:
    assert read(["x" * 8, "\n", "y" * 8], 8) == ["x" * 8, "y" * 8]
    with pytest.raises(LineTooLongError, match="line 2 is longer than 8 characters") as caught:
        read(["x" * 8, "\n", "y" * 5, "y" * 4, "\n"], 8)
    assert (caught.value.limit, caught.value.line) == (8, 2)


def test_the_reader_stops_as_soon_as_the_line_passes_the_bound() -> None:
    taken: list[int] = []

    async def endless() -> AsyncIterator[str]:
        for number in range(10_000):
            taken.append(number)
            yield "z" * 100

    async def run() -> list[str]:
        return [line async for line in bounded_lines(endless(), 1_000)]

    with pytest.raises(LineTooLongError):
        asyncio.run(run())
    assert len(taken) == 11  # 1,100 characters read: the first chunk past the bound

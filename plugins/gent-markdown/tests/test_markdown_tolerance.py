"""The delimiter habits of instruct models that the markdown format reads: a code fence that
never closes does not hide the headers inside it for good. A fence that closes keeps every
header inside it as content."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from gent_markdown import MarkdownFormat
from gent_markdown.scanner import MarkdownScanner

from gent_core.testing import stream_parse

NAMES = ["thinking", "action", "answer"]


def read(text: str) -> list[tuple[str, str, bool]]:
    return [(s.name, s.content, s.complete) for s in MarkdownFormat().parse(text, NAMES)]


def test_a_header_inside_a_fence_never_closed_starts_its_section() -> None:
    text = '# Thinking\nThe code:\n```python\nprint(1)\n# Action\n{"tool": "t"}\n'
    assert read(text) == [
        ("thinking", "The code:\n```python\nprint(1)", True),
        ("action", '{"tool": "t"}', True),
    ]
    parsed = MarkdownFormat().parse(text, NAMES)
    assert parsed.sections[0].end == parsed.sections[1].start == text.index("# Action")


def test_a_fence_that_closes_keeps_the_headers_inside_it() -> None:
    text = "# Thinking\n```\n# Action\nnot a call\n```\n# Answer\n4"
    assert read(text) == [
        ("thinking", "```\n# Action\nnot a call\n```", True),
        ("answer", "4", True),
    ]


def test_the_observation_header_in_a_fence_never_closed_ends_the_section() -> None:
    text = "# Action\n```json\n[1]\n# observation\nmade up"
    assert read(text) == [("action", "```json\n[1]", True)]


def test_only_the_first_reading_is_tolerant() -> None:
    # the answer after the thinking is read by the plain rules: its own open fence hides
    # the header inside it, and the end of the output ends it
    text = "# Thinking\n```\n# Answer\n```\n```\n# Action\n[1]"  # closed, then not
    assert read(text) == [("thinking", "```\n# Answer\n```\n```", True), ("action", "[1]", True)]
    text = "# Thinking\n~~~\n# Answer\n```\n# Action\n[1]"
    assert read(text) == [("thinking", "~~~", True), ("answer", "```\n# Action\n[1]", True)]


def test_a_section_left_inside_an_open_fence_from_the_start_is_still_cut_off() -> None:
    assert read('# Action\n```json\n{"tool": "t"}') == [("action", '```json\n{"tool": "t"}', False)]


@pytest.mark.parametrize("size", [1, 2, 5, 64])
def test_streaming_in_any_chunks_gives_the_one_shot_reading(size: int) -> None:
    text = "# Thinking\nplan\n```py\nx\n# Action\n[1]\n#  answer :\nno\n"
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    _, result = stream_parse(MarkdownFormat(), NAMES, chunks)
    assert result == MarkdownFormat().parse(text, NAMES)


@contextmanager
def scanned_characters() -> Iterator[list[int]]:
    """Count the characters every scanner's ``_scan`` is given (the held text read again
    included)."""
    count = [0]
    scan = MarkdownScanner._scan

    def counting(self: MarkdownScanner, buf: str, final: bool) -> object:
        count[0] += len(buf)
        return scan(self, buf, final)

    MarkdownScanner._scan = counting  # type: ignore[method-assign, assignment]
    try:
        yield count
    finally:
        MarkdownScanner._scan = scan  # type: ignore[method-assign]


@pytest.mark.parametrize("unit", ["# Action\n", "# Answer\n```\n", "```\n# Action\n~~~\n"])
@pytest.mark.parametrize("closed", [False, True])
def test_every_character_is_scanned_at_most_twice(unit: str, closed: bool) -> None:
    text = "# Thinking\n````\n" + unit * 2000 + ("````\n" if closed else "")
    for chunk_size in (len(text), 7):
        with scanned_characters() as count:
            parser = MarkdownFormat().incremental_parser(NAMES)
            for start in range(0, len(text), chunk_size):
                parser.feed(text[start : start + chunk_size])
            parser.close()
        # the text once, read again once at most, plus the undecided tails (one line each)
        assert count[0] <= 2 * len(text) + 20 * len(text) // chunk_size, (unit, chunk_size)

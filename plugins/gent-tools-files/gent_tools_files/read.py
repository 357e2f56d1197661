"""The ``read_file`` tool: a text file, whole or by line range, within a chat bound.

* Without a range, a file that fits the bound (``max_lines`` lines and ``max_chars``
  characters) is returned whole. A larger one is added to the clipboard by path (the
  clipboard shows its beginning) and the answer says so and how to read a range.
* With ``start_line``/``end_line`` (1-based, inclusive), those lines are returned, up to the
  bound; a note says which lines were shown, of how many, and where to continue.
* Binary files are reported (size and type), not shown; see :mod:`gent_tools_files.text` for
  the encoding policy.
* The file is read in chunks: memory stays bounded whatever its size. The lines after the
  shown ones are counted (for the "of N lines" note) up to the file's first
  :data:`COUNT_BYTES` bytes; past that, the note says "more than N lines", N counted in those
  bytes. The bound is on work, not time, so the answer is the same on any machine.
"""

from __future__ import annotations

import codecs
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from gent_core.context import Cancellation
from gent_core.tools import ToolResult
from gent_core.workspace import Target, Workspace
from gent_tools_files.base import FILE_PATH_SCHEMA, FileTool, FileToolOptions
from gent_tools_files.errors import BinaryFileError, FileToolError
from gent_tools_files.examples import EXAMPLES
from gent_tools_files.text import (
    LineBlock,
    LineReader,
    ReadLimitReached,
    decode_line,
    human_size,
    sniff_binary,
)

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext

__all__ = ["COUNT_BYTES", "ReadFile", "ReadFileOptions"]

COUNT_BYTES = 256 * 1024 * 1024
"""Bytes of a file within which its lines are counted, for the "of N lines" note (a larger
file's note says "more than N lines"). Reading goes further when the lines asked for lie
further."""


class ReadFileOptions(FileToolOptions):
    """Options of ``read_file`` (set in the agent config).

    Attributes:
        max_lines: Lines shown at most in one answer.
        max_chars: Characters shown at most in one answer (keep it below the agent's
            ``max_tool_output_chars`` limit, 16,000 by default).
    """

    max_lines: int = Field(500, ge=1, le=1_000_000, description="lines shown at most at once")
    max_chars: int = Field(
        12_000, ge=200, le=10_000_000, description="characters shown at most at once"
    )


@dataclass
class _Collected:
    """The lines taken for the answer, and why taking stopped."""

    first: int
    last: int | None
    max_lines: int
    max_chars: int
    numbered: bool
    lines: list[tuple[int, str]] = field(default_factory=list)
    chars: int = 0
    done: bool = False
    bound: str | None = None  # "lines" or "characters" when a bound stopped it
    cut_line: tuple[int, int] | None = None  # (number, bytes) of a line shown cut
    replaced: int = 0  # lines with bytes that are not UTF-8

    def take(self, block: LineBlock) -> None:
        """Take the lines of ``block`` that fall in the range, within the bounds."""
        if block.first_line + block.line_count <= self.first:
            return
        for index, raw in enumerate(block.lines()):
            number = block.first_line + index
            if number < self.first:
                continue
            if self.last is not None and number > self.last:
                self.done = True
                return
            if len(self.lines) >= self.max_lines:
                self._stop("lines")
                return
            if number == 1 and raw.startswith(codecs.BOM_UTF8):
                raw = raw[len(codecs.BOM_UTF8) :]
            text, replaced = decode_line(raw)
            prefix = len(str(number)) + 2 if self.numbered else 0
            room = self.max_chars - self.chars - prefix - 1
            if len(text) > room or number in block.cut:
                if self.lines:
                    self._stop("characters")
                    return
                # A first line longer than the whole bound: show its beginning.
                self.cut_line = (number, block.cut.get(number, len(raw)))
                text = text[: max(room, 0)]
                self._add(number, text, replaced)
                self._stop("characters")
                return
            self._add(number, text, replaced)

    def _add(self, number: int, text: str, replaced: bool) -> None:
        self.lines.append((number, text))
        self.chars += len(text) + 1 + (len(str(number)) + 2 if self.numbered else 0)
        self.replaced += replaced

    def _stop(self, bound: str) -> None:
        self.done = True
        self.bound = bound

    def render(self) -> str:
        if not self.numbered:
            return "\n".join(text for _, text in self.lines)
        width = len(str(self.lines[-1][0])) if self.lines else 1
        return "\n".join(f"{number:>{width}}: {text}" for number, text in self.lines)


class ReadFile(FileTool):
    """``read_file``: read a UTF-8 text file in the working directory."""

    name = "read_file"
    description = (
        "Read a text file in the working directory, whole or a range of lines "
        "(start_line/end_line, 1-based, inclusive). A file too large to show at once is "
        "added to the clipboard; then read it by ranges."
    )
    parameters = {  # noqa: RUF012 - read-only, checked when the class is defined
        "type": "object",
        "properties": {
            "path": {**FILE_PATH_SCHEMA, "examples": ["README.md"]},
            "start_line": {
                "type": "integer",
                "minimum": 1,
                "description": "first line to show (1-based); the start when omitted",
            },
            "end_line": {
                "type": "integer",
                "minimum": 1,
                "description": "last line to show (inclusive); the end when omitted",
            },
            "line_numbers": {
                "type": "boolean",
                "default": False,
                "description": "prefix each line with its number",
            },
        },
        "required": ["path"],
        "additionalProperties": False,
    }
    examples = EXAMPLES["read_file"]
    Options = ReadFileOptions
    options: ReadFileOptions

    def run(
        self,
        working_directory: Path,
        path: str,
        start_line: int | None = None,
        end_line: int | None = None,
        line_numbers: bool = False,
        context: ExecutionContext | None = None,
    ) -> ToolResult | str:
        """Read ``path`` (see the module docstring)."""
        cancellation = context.cancellation if context is not None else Cancellation()
        workspace = Workspace(working_directory, tool=self.name)
        target = workspace.resolve(path)
        info = workspace.require_file(target)
        if start_line is not None and end_line is not None and end_line < start_line:
            raise FileToolError(
                f"end_line ({end_line}) is before start_line ({start_line}).",
                tool=self.name,
                path=path,
                hint="Give end_line >= start_line, or omit end_line to read to the end.",
            )
        ranged = start_line is not None or end_line is not None
        collected = _Collected(
            first=start_line or 1,
            last=end_line,
            max_lines=self.options.max_lines,
            max_chars=self.options.max_chars,
            numbered=line_numbers,
        )
        fd = workspace.open_file(target)
        try:
            reader = LineReader(
                fd, max_line_bytes=self.options.max_chars * 4, check=cancellation.raise_if_cancelled
            )
            head = reader.peek()
            kind = sniff_binary(head, complete=info.st_size <= len(head))
            if kind is not None:
                raise BinaryFileError(
                    f"{target.relative!r} is a binary file ({kind}, {human_size(info.st_size)}); "
                    "it is not shown. read_file shows UTF-8 text files only.",
                    tool=self.name,
                    path=path,
                    kind=kind,
                    size=info.st_size,
                )
            counted = _read(reader, collected)
        finally:
            os.close(fd)
        total = reader.total_lines
        if ranged:
            return _ranged_answer(target, collected, total, counted, self.name)
        if collected.bound is None:
            return _whole_answer(target, collected)
        return _clipboard_answer(target, collected, total, counted, info.st_size)


def _read(reader: LineReader, collected: _Collected) -> bool:
    """Take lines until done, then count the rest within :data:`COUNT_BYTES`; whether the
    count is final (the whole file was read).
    """
    blocks = reader.blocks()
    for block in blocks:
        collected.take(block)
        if collected.done:
            break
    reader.counting_only = True
    reader.max_bytes = COUNT_BYTES
    try:
        for _ in blocks:
            pass
    except ReadLimitReached:
        return False
    return True


def _lines_note(collected: _Collected) -> str:
    if not collected.replaced:
        return ""
    return (
        f"\n[{collected.replaced} line(s) had bytes that are not UTF-8, shown as \ufffd; "
        "the file itself is unchanged]"
    )


def _whole_answer(target: Target, collected: _Collected) -> str:
    if not collected.lines:
        return f"[{target.relative} is empty]"
    return collected.render() + _lines_note(collected)


def _count(total: int, counted: bool) -> str:
    return f"{total:,}" if counted else f"more than {total:,}"


def _ranged_answer(
    target: Target, collected: _Collected, total: int, counted: bool, tool: str
) -> str:
    if not collected.lines:
        raise FileToolError(
            f"start_line ({collected.first}) is past the end of {target.relative!r}, which has "
            f"{_count(total, counted)} line(s).",
            tool=tool,
            path=target.raw,
            hint=f"Give a start_line between 1 and {max(total, 1):,}.",
        )
    first, last = collected.lines[0][0], collected.lines[-1][0]
    note = f"[lines {first:,}-{last:,} of {_count(total, counted)}"
    if collected.cut_line is not None:
        number, size = collected.cut_line
        note += (
            f"; line {number:,} is {size:,} bytes long and only its beginning is shown; the "
            f"next line is start_line={number + 1}"
        )
    elif collected.bound is not None:
        bound = (
            f"{collected.max_lines:,} lines"
            if collected.bound == "lines"
            else f"{collected.max_chars:,} characters"
        )
        note += f"; stopped at the bound of {bound} per answer; continue with start_line={last + 1}"
    elif collected.last is not None and collected.last > last:
        note += "; the file ends there"
    return collected.render() + "\n" + note + "]" + _lines_note(collected)


def _clipboard_answer(
    target: Target, collected: _Collected, total: int, counted: bool, size: int
) -> ToolResult:
    fits = max(len(collected.lines) - (collected.cut_line is not None), 1)
    example = f'{{"path": "{target.relative}", "start_line": 1, "end_line": {fits}}}'
    message = (
        f"{target.relative} has {_count(total, counted)} lines ({human_size(size)}): more than "
        f"read_file shows at once ({collected.max_lines:,} lines or {collected.max_chars:,} "
        "characters). It was added to the clipboard, which shows its beginning. To read a "
        f"part here, give start_line and end_line, for example {example}; to find lines, use "
        "search_text."
    )
    if collected.cut_line is not None:
        number, length = collected.cut_line
        message += f" Line {number:,} alone is {length:,} bytes long."
    return ToolResult(output=message, clipboard_files=[Path(*target.parts)])

"""Reading files as UTF-8 text in bounded memory: binary sniffing and a streaming line reader.

Encoding policy (the same for every tool):

* Files are UTF-8. A leading byte-order mark is dropped from what is shown (and kept by
  ``edit_file``).
* A file whose first :data:`SNIFF_BYTES` bytes hold a NUL byte or are not valid UTF-8 is
  *binary*: it is reported with its size and a guess of its type, never shown. UTF-16 and
  UTF-32 files (recognised by their byte-order mark) count as binary too.
* Past that first block, an undecodable byte (or a NUL) is shown as U+FFFD and the output says
  how many lines had some.

:class:`LineReader` reads a file descriptor in :data:`CHUNK_BYTES` chunks and hands out whole
lines in :class:`LineBlock` objects; memory stays at about two chunks plus one line cut at
``max_line_bytes``, whatever the file's size or the length of its lines. Its ``max_bytes``
bounds the work in bytes read (never in seconds), so what a tool answers about a file is the
same on every machine, however busy.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

__all__ = [
    "CHUNK_BYTES",
    "SNIFF_BYTES",
    "LineBlock",
    "LineReader",
    "ReadLimitReached",
    "cut_utf8",
    "decode_line",
    "human_size",
    "sniff_binary",
]

SNIFF_BYTES = 8192
"""Bytes examined to tell text from binary."""

CHUNK_BYTES = 1 << 20
"""Bytes read at a time."""

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"RIFF", "RIFF data (WAV, AVI or WebP)"),
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive (also docx, xlsx, jar, wheel)"),
    (b"\x1f\x8b", "gzip archive"),
    (b"BZh", "bzip2 archive"),
    (b"\xfd7zXZ\x00", "xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
    (b"\x28\xb5\x2f\xfd", "Zstandard archive"),
    (b"\x7fELF", "ELF executable"),
    (b"MZ", "Windows executable"),
    (b"\xca\xfe\xba\xbe", "Mach-O or Java class file"),
    (b"\xcf\xfa\xed\xfe", "Mach-O executable"),
    (b"SQLite format 3\x00", "SQLite database"),
    (b"\x00asm", "WebAssembly module"),
    (b"OggS", "Ogg media"),
    (b"ID3", "MP3 audio"),
    (b"fLaC", "FLAC audio"),
    (b"\x00\x00\x00\x18ftyp", "MP4 media"),
    (b"\x00\x00\x00\x20ftyp", "MP4 media"),
    (b"\x93NUMPY", "NumPy array"),
    (b"\x80\x04\x95", "Python pickle"),
)
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "UTF-32 text"),
    (codecs.BOM_UTF32_BE, "UTF-32 text"),
    (codecs.BOM_UTF16_LE, "UTF-16 text"),
    (codecs.BOM_UTF16_BE, "UTF-16 text"),
)


def sniff_binary(head: bytes, *, complete: bool) -> str | None:
    """Tell whether a file starting with ``head`` is binary, and what it looks like.

    Args:
        head: The file's first bytes (up to :data:`SNIFF_BYTES` are examined).
        complete: Whether ``head`` is the whole file (else a multi-byte character cut at its
            end is not held against it).

    Returns:
        ``None`` for UTF-8 text; else a short description such as ``"PNG image"``, ``"UTF-16
        text"`` or ``"binary data"``.
    """
    block = head[:SNIFF_BYTES]
    complete = complete and len(head) <= SNIFF_BYTES
    for bom, name in _BOMS:
        if block.startswith(bom):
            return f"{name} (only UTF-8 is read)"
    if b"\x00" not in block:
        try:
            codecs.getincrementaldecoder("utf-8")().decode(block, final=complete)
        except UnicodeDecodeError:
            pass
        else:
            return None
    for magic, name in _MAGIC:
        if block.startswith(magic):
            return name
    if b"\x00" not in block:
        return "non-UTF-8 data (a legacy encoding or binary)"
    return "binary data"


def human_size(size: int) -> str:
    """``"1.5 MB"`` (1024-based units), or ``"512 bytes"`` below a kilobyte."""
    if size < 1024:
        return f"{size:,} byte{'s' if size != 1 else ''}"
    value = size / 1024
    units = ("KB", "MB", "GB", "TB")
    index = 0
    while value >= 1024 and index < len(units) - 1:
        value /= 1024
        index += 1
    return f"{value:.1f} {units[index]}"


def cut_utf8(data: bytes, limit: int) -> bytes:
    """``data`` cut to at most ``limit`` bytes, never inside a UTF-8 character."""
    if len(data) <= limit:
        return data
    end = limit
    while end > 0 and data[end] & 0xC0 == 0x80:
        end -= 1
    return data[:end]


def decode_line(data: bytes) -> tuple[str, bool]:
    """Decode one line (without its newline) for display.

    Returns:
        The text, without a trailing carriage return, undecodable bytes and NULs as U+FFFD;
        and whether anything had to be replaced.
    """
    if data.endswith(b"\r"):
        data = data[:-1]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace").replace("\x00", "\ufffd"), True
    if "\x00" in text:
        return text.replace("\x00", "\ufffd"), True
    return text, False


class ReadLimitReached(Exception):
    """Raised by :meth:`LineReader.blocks` when ``max_bytes`` were read and the file goes on."""


@dataclass
class LineBlock:
    """Whole lines of a file, as bytes.

    Attributes:
        first_line: The 1-based number of the first line in :attr:`data`.
        data: Lines separated by newlines; the last one ends with a newline too, except
            the file's last line when the file does not end with a newline.
        line_count: How many lines :attr:`data` holds.
        cut: For lines longer than the reader's ``max_line_bytes`` that spanned chunks: line
            number to the line's full length in bytes (the data holds its first bytes).
    """

    first_line: int
    data: bytes
    line_count: int
    cut: dict[int, int] = field(default_factory=dict)

    def lines(self) -> list[bytes]:
        """The lines, without their newlines."""
        parts = self.data.split(b"\n")
        if parts and parts[-1] == b"" and self.data.endswith(b"\n"):
            parts.pop()
        return parts


class LineReader:
    """Reads a file descriptor as blocks of whole lines, in bounded memory.

    A line within one chunk is kept whole (it is at most a chunk long); a line that spans
    chunks is kept up to ``max_line_bytes`` and its full length is recorded in
    :attr:`LineBlock.cut`.

    Args:
        fd: An open file descriptor, positioned at the start (not closed here).
        max_line_bytes: How much of a line spanning chunks is kept.
        check: Called before each chunk is read; raise from it to stop (cancellation). May be
            replaced between blocks (attribute ``check``).
        chunk_bytes: Bytes read at a time.
        max_bytes: Bytes read at most, ``None`` for no bound (attribute ``max_bytes``, may be
            changed between blocks). Reading stops exactly there: :meth:`blocks` raises
            :class:`ReadLimitReached` if the file goes on, and ends normally if it ends
            there. The first block (the bytes :meth:`peek` kept) is always handed out.

    Attributes:
        line: The number of the next line to hand out.
        counting_only: Set it to only count the remaining lines.
        finished: Whether the whole file was read.
        bytes_read: Bytes read so far.
    """

    def __init__(
        self,
        fd: int,
        *,
        max_line_bytes: int,
        check: Callable[[], None] = lambda: None,
        chunk_bytes: int = CHUNK_BYTES,
        max_bytes: int | None = None,
    ) -> None:
        self._fd = fd
        self._max_line = max(max_line_bytes, 1)
        self.check = check
        self._chunk = chunk_bytes
        self.max_bytes = max_bytes
        self._pending = b""
        self.bytes_read = 0
        self.line = 1
        self.counting_only = False
        self.finished = False

    def peek(self, size: int = SNIFF_BYTES) -> bytes:
        """The file's first ``size`` bytes (fewer at its end), kept for :meth:`blocks`."""
        while len(self._pending) < size:
            data = os.read(self._fd, size - len(self._pending))
            if not data:
                break
            self._pending += data
        return self._pending[:size]

    def _read(self) -> bytes:
        self.check()
        if self._pending:
            data, self._pending = self._pending, b""
            return data
        size = self._chunk
        if self.max_bytes is not None:
            size = min(size, self.max_bytes - self.bytes_read)
            if size <= 0:
                if os.read(self._fd, 1):
                    raise ReadLimitReached
                return b""  # the file ends exactly at the bound: nothing was left unread
        data = os.read(self._fd, size)
        self.bytes_read += len(data)
        return data

    def blocks(self) -> Iterator[LineBlock]:
        """Yield the file's lines in order.

        Set :attr:`counting_only` to stop building blocks: the rest of the file is then only
        counted (newlines), and :attr:`total_lines` is final once the iterator is exhausted.

        Raises:
            ReadLimitReached: ``max_bytes`` were read and the file goes on (:attr:`line` and
                :attr:`bytes_read` say how far it got).
        """
        self.bytes_read = len(self._pending)
        carry = b""  # the start of the current line (at most max_line_bytes kept)
        carry_length = 0  # the current line's full length so far
        while chunk := self._read():
            last_newline = chunk.rfind(b"\n")
            if self.counting_only:
                if last_newline < 0:
                    carry_length += len(chunk)
                else:
                    self.line += chunk.count(b"\n")
                    carry_length = len(chunk) - last_newline - 1
                continue
            if last_newline < 0:
                if carry_length < self._max_line:
                    carry += chunk[: self._max_line - carry_length]
                carry_length += len(chunk)
                continue
            first_newline = chunk.find(b"\n")
            cut: dict[int, int] = {}
            head = chunk[:first_newline]
            if carry_length:
                full = carry_length + len(head)
                if full > self._max_line:
                    head = cut_utf8(carry + head[: self._max_line], self._max_line)
                    cut[self.line] = full
                else:
                    head = carry + head
            data = head + chunk[first_newline : last_newline + 1]
            count = chunk.count(b"\n", first_newline, last_newline + 1)
            block = LineBlock(self.line, data, count, cut)
            self.line += count
            yield block
            rest = chunk[last_newline + 1 :]
            carry, carry_length = rest[: self._max_line], len(rest)
        if carry_length:
            if not self.counting_only:
                cut = {}
                if carry_length > self._max_line:
                    carry = cut_utf8(carry, self._max_line)
                    cut[self.line] = carry_length
                block = LineBlock(self.line, carry, 1, cut)
                self.line += 1
                yield block
            else:
                self.line += 1
        self.finished = True

    @property
    def total_lines(self) -> int:
        """Lines in the file once :meth:`blocks` is exhausted; before, the lines seen so far."""
        return self.line - 1

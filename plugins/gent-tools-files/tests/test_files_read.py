"""``read_file``: ranges, line numbers, the chat bound, the clipboard for large files, binary
files, the encoding policy, errors, memory that stays bounded on a 500 MB file, and a line
count bounded by bytes read, never by time."""

from __future__ import annotations

import asyncio
import os
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from gent_tools_files import BinaryFileError, FileToolError, ReadFile
from gent_tools_files import read as read_module
from gent_tools_files.text import CHUNK_BYTES

from gent_core.context import ExecutionContext
from gent_core.errors import ConfigError, InvalidToolArgumentsError
from gent_core.tools import ToolResult

Run = Callable[..., ToolResult]


def numbered_lines(count: int) -> str:
    return "".join(f"line {number}\n" for number in range(1, count + 1))


def test_a_small_file_is_returned_whole(run: Run, work: Path) -> None:
    (work / "a.txt").write_text("one\ntwo\n\nfour\n")
    result = run(ReadFile(), {"path": "a.txt"})
    assert result.output == "one\ntwo\n\nfour"
    assert result.clipboard_files == []


def test_a_file_without_final_newline_keeps_its_last_line(run: Run, work: Path) -> None:
    (work / "a.txt").write_text("one\ntwo")
    assert run(ReadFile(), {"path": "a.txt"}).output == "one\ntwo"


def test_line_numbers(run: Run, work: Path) -> None:
    (work / "a.txt").write_text(numbered_lines(12))
    output = run(ReadFile(), {"path": "a.txt", "line_numbers": True}).output
    lines = output.splitlines()
    assert lines[0] == " 1: line 1"
    assert lines[11] == "12: line 12"


def test_a_range_is_inclusive_and_says_where_it_is(run: Run, work: Path) -> None:
    (work / "a.txt").write_text(numbered_lines(100))
    output = run(ReadFile(), {"path": "a.txt", "start_line": 10, "end_line": 12}).output
    assert output == "line 10\nline 11\nline 12\n[lines 10-12 of 100]"


def test_a_range_with_numbers_and_only_a_start(run: Run, work: Path) -> None:
    (work / "a.txt").write_text(numbered_lines(100))
    output = run(ReadFile(), {"path": "a.txt", "start_line": "98", "line_numbers": True}).output
    assert output == " 98: line 98\n 99: line 99\n100: line 100\n[lines 98-100 of 100]"


def test_a_range_past_the_end_is_clamped_with_a_note(run: Run, work: Path) -> None:
    (work / "a.txt").write_text(numbered_lines(5))
    output = run(ReadFile(), {"path": "a.txt", "start_line": 4, "end_line": 50}).output
    assert output == "line 4\nline 5\n[lines 4-5 of 5; the file ends there]"


def test_a_start_past_the_end_is_an_error_giving_the_length(run: Run, work: Path) -> None:
    (work / "a.txt").write_text(numbered_lines(5))
    with pytest.raises(FileToolError) as caught:
        run(ReadFile(), {"path": "a.txt", "start_line": 6})
    assert "start_line (6) is past the end of 'a.txt', which has 5 line(s)" in str(caught.value)
    assert "between 1 and 5" in caught.value.model_message


def test_an_end_before_the_start_is_an_error(run: Run, work: Path) -> None:
    (work / "a.txt").write_text(numbered_lines(5))
    with pytest.raises(FileToolError, match=r"end_line \(2\) is before start_line \(3\)"):
        run(ReadFile(), {"path": "a.txt", "start_line": 3, "end_line": 2})


def test_bad_arguments_are_refused_by_the_schema(run: Run, work: Path) -> None:
    (work / "a.txt").write_text("x\n")
    with pytest.raises(InvalidToolArgumentsError, match="start_line"):
        run(ReadFile(), {"path": "a.txt", "start_line": 0})
    with pytest.raises(InvalidToolArgumentsError, match="Missing required argument 'path'"):
        run(ReadFile(), {})
    with pytest.raises(InvalidToolArgumentsError, match="Unknown argument 'lines'"):
        run(ReadFile(), {"path": "a.txt", "lines": 3})


def test_an_empty_file_says_so(run: Run, work: Path) -> None:
    (work / "empty.txt").write_bytes(b"")
    assert run(ReadFile(), {"path": "empty.txt"}).output == "[empty.txt is empty]"


def test_missing_files_and_directories_are_errors_with_suggestions(run: Run, work: Path) -> None:
    (work / "src").mkdir()
    (work / "src" / "main.py").write_text("x\n")
    with pytest.raises(FileToolError) as caught:
        run(ReadFile(), {"path": "src/mian.py"})
    assert "'src/mian.py' does not exist" in caught.value.model_message
    assert "Did you mean 'src/main.py'?" in caught.value.model_message
    with pytest.raises(FileToolError, match="'src' is a directory, not a file") as caught:
        run(ReadFile(), {"path": "src"})
    assert "list_dir" in caught.value.model_message


# --------------------------------------------------------------------------- encoding


def test_crlf_line_endings_are_shown_as_lines(run: Run, work: Path) -> None:
    (work / "dos.txt").write_bytes(b"one\r\ntwo\r\n")
    assert run(ReadFile(), {"path": "dos.txt"}).output == "one\ntwo"


def test_a_byte_order_mark_is_not_shown(run: Run, work: Path) -> None:
    (work / "bom.txt").write_bytes(b"\xef\xbb\xbfhello\n")
    assert run(ReadFile(), {"path": "bom.txt"}).output == "hello"


def test_non_utf8_bytes_after_the_first_block_are_replaced_and_noted(run: Run, work: Path) -> None:
    data = b"x" * 10_000 + b"\n" + b"caf\xe9\n" + b"ok\n"
    (work / "latin.txt").write_bytes(data)
    output = run(ReadFile(), {"path": "latin.txt", "start_line": 2}).output
    assert output.startswith("caf\ufffd\nok\n[lines 2-3 of 3]")
    assert "1 line(s) had bytes that are not UTF-8, shown as \ufffd" in output


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "PNG image"),
        (b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 100, "ELF executable"),
        (b"text\x00with a NUL", "binary data"),
        ("hello".encode("utf-16"), "UTF-16 text (only UTF-8 is read)"),
        (b"caf\xe9 cr\xe8me\n", "non-UTF-8 data (a legacy encoding or binary)"),
    ],
)
def test_binary_files_are_reported_not_dumped(
    content: bytes, kind: str, run: Run, work: Path
) -> None:
    (work / "blob").write_bytes(content)
    with pytest.raises(BinaryFileError) as caught:
        run(ReadFile(), {"path": "blob"})
    assert caught.value.kind == kind
    assert caught.value.size == len(content)
    size = f"{len(content):,} bytes" if len(content) < 1024 else f"{len(content) / 1024:.1f} KB"
    assert f"'blob' is a binary file ({kind}, {size})" in str(caught.value)
    assert "not shown" in caught.value.model_message


def test_a_multibyte_character_cut_by_the_sniffed_block_is_still_text(run: Run, work: Path) -> None:
    data = ("é" * 5000 + "\n").encode()  # 10,001 bytes: the 8,192-byte block ends mid-text
    (work / "accents.txt").write_bytes(data)
    assert run(ReadFile(), {"path": "accents.txt"}).output == "é" * 5000


# --------------------------------------------------------------------------- bounds


def test_a_large_file_goes_to_the_clipboard_by_path(run: Run, work: Path) -> None:
    (work / "logs").mkdir()
    (work / "logs" / "big.log").write_text(numbered_lines(2000))
    result = run(ReadFile(max_lines=100), {"path": "logs/big.log"})
    assert result.ok
    assert result.clipboard_files == [Path("logs/big.log")]
    message = result.output
    assert message.startswith("logs/big.log has 2,000 lines (")
    assert "more than read_file shows at once (100 lines or 12,000 characters)" in message
    assert "added to the clipboard" in message
    assert '{"path": "logs/big.log", "start_line": 1, "end_line": 100}' in message
    assert "line 1\n" not in message  # a short answer, not the content


def test_the_character_bound_also_sends_a_file_to_the_clipboard(run: Run, work: Path) -> None:
    (work / "wide.txt").write_text(("x" * 99 + "\n") * 30)  # 3,000 characters, 30 lines
    result = run(ReadFile(max_chars=1000), {"path": "wide.txt"})
    assert result.clipboard_files == [Path("wide.txt")]
    assert '"end_line": 10}' in result.output  # 10 lines of 99 characters + newlines fit
    assert run(ReadFile(max_chars=5000), {"path": "wide.txt"}).clipboard_files == []


def test_a_range_larger_than_the_bound_stops_with_where_to_continue(run: Run, work: Path) -> None:
    (work / "big.txt").write_text(numbered_lines(2000))
    result = run(ReadFile(max_lines=50), {"path": "big.txt", "start_line": 101})
    lines = result.output.splitlines()
    assert lines[0] == "line 101"
    assert lines[49] == "line 150"
    assert lines[50] == (
        "[lines 101-150 of 2,000; stopped at the bound of 50 lines per answer; continue with "
        "start_line=151]"
    )
    assert result.clipboard_files == []


def test_a_line_longer_than_the_bound_is_cut_with_its_length(run: Run, work: Path) -> None:
    long_line = "y" * 50_000
    (work / "min.js").write_text(f"first\n{long_line}\nlast\n")
    result = run(ReadFile(max_chars=1000), {"path": "min.js", "start_line": 2, "end_line": 2})
    text, note = result.output.split("\n", 1)
    assert set(text) == {"y"}
    assert len(text) < 1000
    assert "line 2 is 50,000 bytes long and only its beginning is shown" in note
    assert "start_line=3" in note


def test_options_are_checked(work: Path) -> None:
    with pytest.raises(ConfigError, match="max_char"):
        ReadFile(max_char=10)
    with pytest.raises(ConfigError, match="max_lines"):
        ReadFile(max_lines=0)
    assert ReadFile(max_lines="7").options.max_lines == 7


def test_cancellation_stops_a_read(work: Path) -> None:
    (work / "a.txt").write_text("x\n")
    context = ExecutionContext(working_directory=work)
    context.cancellation.cancel("stop")
    from gent_core.testing import run_tool_sync

    with pytest.raises(asyncio.CancelledError):
        run_tool_sync(ReadFile(), {"path": "a.txt"}, context)


def _sparse_file(path: Path, size: int, head: bytes, tail: bytes) -> None:
    with path.open("wb") as file:
        file.write(head)
        file.seek(size - len(tail))
        file.write(tail)


def test_a_500_mb_file_never_loads_whole(run: Run, work: Path) -> None:
    size = 500 * 1024 * 1024
    head = numbered_lines(1000).encode()
    _sparse_file(work / "huge.log", size, head, b"\nthe end\n")
    tool = ReadFile()
    tracemalloc.start()
    peaks = []
    try:
        results = []
        for arguments in (
            {"path": "huge.log"},
            {"path": "huge.log", "start_line": 999, "end_line": 1001},
            {"path": "huge.log", "start_line": 1001},
        ):
            tracemalloc.reset_peak()
            results.append(run(tool, arguments))
            peaks.append(tracemalloc.get_traced_memory()[1])
    finally:
        tracemalloc.stop()
    whole, ranged, long_line = results
    assert whole.clipboard_files == [Path("huge.log")]
    # Counting stops at the file's first COUNT_BYTES (256 MiB), inside the 500 MB line 1,001:
    # the same answer on any machine, however loaded.
    assert size - 9 > read_module.COUNT_BYTES
    assert "huge.log has more than 1,000 lines (500.0 MB)" in whole.output
    # The ranges below need line 1,001, so the whole file is read anyway: the count is exact.
    assert ranged.output == (
        "line 999\nline 1000\n[lines 999-1,000 of 1,002; stopped at the bound of 12,000 "
        "characters per answer; continue with start_line=1001]"
    )
    text, note = long_line.output.split("\n", 1)
    assert set(text) == {"\ufffd"}  # NUL bytes are shown as U+FFFD, never raw
    assert len(text) < 12_000
    assert note.startswith(
        f"[lines 1,001-1,001 of 1,002; line 1,001 is {size - len(head) - 9:,} bytes long"
    )
    # Bounded by a few read chunks, not by the file: 500 MB read, under 8 MB held at once.
    for peak in peaks:
        assert peak < 8 * CHUNK_BYTES, f"peak {peak:,} bytes"
    os.remove(work / "huge.log")


KIB_LINE = "x" * 1023 + "\n"


def test_lines_are_counted_within_a_bound_on_bytes(
    run: Run, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(read_module, "COUNT_BYTES", 3 * CHUNK_BYTES)
    (work / "exact.txt").write_text(KIB_LINE * 3072)  # ends exactly at the bound: all counted
    output = run(ReadFile(), {"path": "exact.txt"}).output
    assert output.startswith("exact.txt has 3,072 lines (3.0 MB)")
    (work / "over.txt").write_text(KIB_LINE * 3073 + "tail")  # goes on past the bound
    output = run(ReadFile(), {"path": "over.txt"}).output
    assert output.startswith("over.txt has more than 3,072 lines (3.0 MB)")
    ranged = run(ReadFile(max_lines=2), {"path": "over.txt", "start_line": 2}).output
    assert ranged.endswith(
        "\n[lines 2-3 of more than 3,072; stopped at the bound of 2 lines per answer; "
        "continue with start_line=4]"
    )
    # Lines asked for past the bound are still read, and the file's end with them.
    ranged = run(ReadFile(), {"path": "over.txt", "start_line": 3074}).output
    assert ranged == "tail\n[lines 3,074-3,074 of 3,074]"


def test_the_answer_does_not_depend_on_the_clock(
    run: Run, work: Path, request: pytest.FixtureRequest
) -> None:
    """Issue 17: on a loaded machine, counting stopped at a time budget and the answer said
    "more than N lines"; the count is bounded by bytes read now."""
    (work / "big.txt").write_text(KIB_LINE * 2000)
    request.getfixturevalue("leaping_clock")
    output = run(ReadFile(), {"path": "big.txt"}).output
    assert output.startswith("big.txt has 2,000 lines (2.0 MB)")
    ranged = run(ReadFile(), {"path": "big.txt", "start_line": 1999}).output
    assert ranged.endswith("\n[lines 1,999-2,000 of 2,000]")

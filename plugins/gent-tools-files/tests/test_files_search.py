"""``search_text``: plain text and regular expressions, case, globs, bounds on matches, files,
bytes and entries (never seconds), CPU-safe patterns stopped at the bound on matching time
without holding the GIL, skipped files always counted, long lines cut around the match."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest
from gent_tools_files import BinaryFileError, FileToolError, SearchText
from gent_tools_files import search as search_module
from gent_tools_files.text import CHUNK_BYTES

from gent_core.bounds import set_pattern_timeout
from gent_core.context import ExecutionContext
from gent_core.errors import InvalidToolArgumentsError
from gent_core.testing import run_tool, run_tool_sync
from gent_core.tools import ToolResult

T = TypeVar("T")

Run = Callable[..., ToolResult]


@pytest.fixture
def tree(work: Path) -> Path:
    (work / "src" / "pkg").mkdir(parents=True)
    (work / "src" / "main.py").write_text("import pkg\n\ndef main():\n    return pkg.run()\n")
    (work / "src" / "pkg" / "core.py").write_text("def run():\n    return 'Run fast'\n")
    (work / "notes.md").write_text("# Notes\nrun the tests\nRUN AGAIN\n")
    (work / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00run")
    (work / "node_modules" / "lib").mkdir(parents=True)
    (work / "node_modules" / "lib" / "x.js").write_text("run()\n")
    return work


def test_plain_text_results_read_path_line_text(run: Run, tree: Path) -> None:
    assert run(SearchText(), {"pattern": "run("}).output.splitlines() == [
        "src/main.py:4:     return pkg.run()",
        "src/pkg/core.py:1: def run():",
        "[2 matching lines in 2 files; 3 files searched]",
        "[skipped 1 binary file: image.png]",
        "[not entered (skip_dirs option): node_modules; name one as the path to look inside]",
    ]


def test_plain_text_is_not_a_regular_expression(run: Run, tree: Path) -> None:
    output = run(SearchText(), {"pattern": "pkg.run()"}).output
    assert output.startswith("src/main.py:4:     return pkg.run()\n[1 matching line in 1 file")
    (tree / "dots.txt").write_text("pkgXrun()\n")
    assert "dots.txt" not in run(SearchText(), {"pattern": "pkg.run()"}).output


def test_regular_expressions_and_case(run: Run, tree: Path) -> None:
    output = run(SearchText(), {"pattern": r"^run\b", "regex": True, "path": "notes.md"}).output
    assert output.splitlines()[0] == "notes.md:2: run the tests"
    output = run(
        SearchText(),
        {"pattern": r"^run\b", "regex": True, "ignore_case": True, "path": "notes.md"},
    ).output
    assert output.splitlines()[:2] == ["notes.md:2: run the tests", "notes.md:3: RUN AGAIN"]


def test_globs_by_name_and_by_path(run: Run, tree: Path) -> None:
    by_name = run(SearchText(), {"pattern": "run", "glob": "*.md"}).output.splitlines()
    assert by_name[0] == "notes.md:2: run the tests"
    assert by_name[1].startswith("[1 matching line in 1 file; 1 file searched")
    by_path = run(SearchText(), {"pattern": "run", "glob": "src/pkg/*.py"}).output.splitlines()
    assert by_path == [
        "src/pkg/core.py:1: def run():",
        "[1 matching line in 1 file; 1 file searched]",
    ]


def test_a_skipped_directory_is_searched_when_named(run: Run, tree: Path) -> None:
    output = run(SearchText(), {"pattern": "run", "path": "node_modules"}).output
    assert output.splitlines()[0] == "node_modules/lib/x.js:1: run()"


def test_no_match_says_what_was_searched(run: Run, tree: Path) -> None:
    output = run(SearchText(), {"pattern": "Missing"}).output
    assert output.splitlines()[0] == (
        "[no line matches 'Missing' in the working directory: 3 files searched (case-sensitive; "
        "set ignore_case to ignore case)]"
    )


def test_links_and_unreadable_entries_are_counted_not_hidden(run: Run, tree: Path) -> None:
    (tree / "alias.py").symlink_to("src/main.py")
    output = run(SearchText(), {"pattern": "zzz"}).output
    assert "[skipped 1 symbolic link (not followed): alias.py]" in output


def test_the_match_bound(run: Run, work: Path) -> None:
    (work / "many.txt").write_text("hit\n" * 50)
    output = run(SearchText(max_matches=5), {"pattern": "hit"}).output.splitlines()
    assert output[:5] == [f"many.txt:{line}: hit" for line in range(1, 6)]
    assert output[5] == "[5 matching lines in 1 file; 1 file searched]"
    assert output[6].startswith("[stopped at 5 matching lines; there may be more")


def test_the_file_bound(run: Run, work: Path) -> None:
    for index in range(6):
        (work / f"f{index}.txt").write_text("nothing\n")
    output = run(SearchText(max_files=4), {"pattern": "hit"}).output
    assert "4 files searched" in output
    assert "[stopped after searching 4 files; results are partial" in output


def test_the_byte_bound(run: Run, work: Path) -> None:
    """Bytes read, not seconds, bound a search: the same results on any machine."""
    (work / "a.txt").write_text("hit\n")
    filler = "x" * 1023 + "\n"  # 1 KiB lines
    (work / "b.txt").write_text("hit\n" + filler * 3000 + "hit\n")  # hits at lines 1 and 3,002
    (work / "c.txt").write_text("hit\n")
    output = run(SearchText(max_bytes=2 * CHUNK_BYTES), {"pattern": "hit"}).output
    assert output.splitlines() == [
        "a.txt:1: hit",
        "b.txt:1: hit",
        "[2 matching lines in 2 files; 2 files searched]",
        "[stopped after reading 2.0 MB (2,097,152 bytes, the max_bytes bound); results are "
        "partial: narrow the search with path or glob]",
    ]
    output = run(SearchText(max_bytes=4 * CHUNK_BYTES), {"pattern": "hit"}).output
    assert output.splitlines() == [
        "a.txt:1: hit",
        "b.txt:1: hit",
        "b.txt:3002: hit",
        "c.txt:1: hit",
        "[4 matching lines in 3 files; 3 files searched]",
    ]


def test_the_entry_bound_of_the_walk_is_said(
    run: Run, tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_module, "_max_scan", lambda max_files: 3)
    output = run(SearchText(), {"pattern": "run"}).output
    assert (
        "[stopped after examining 3 directory entries; results are partial: narrow the search "
        "with path or glob]"
    ) in output.splitlines()


@pytest.mark.usefixtures("leaping_clock")
def test_a_plain_search_does_not_depend_on_the_clock(run: Run, tree: Path) -> None:
    """Walking and reading are bounded by work; only the regular expression engine's own
    clock (not Python's) bounds matching, as a safety net."""
    assert run(SearchText(), {"pattern": "run("}).output.splitlines()[:3] == [
        "src/main.py:4:     return pkg.run()",
        "src/pkg/core.py:1: def run():",
        "[2 matching lines in 2 files; 3 files searched]",
    ]


def test_long_lines_are_cut_around_the_match(run: Run, work: Path) -> None:
    (work / "min.js").write_text("a" * 5000 + "NEEDLE" + "b" * 5000 + "\n")
    output = run(SearchText(max_line_chars=60), {"pattern": "NEEDLE"}).output.splitlines()[0]
    prefix, text = output.split(": ", 1)
    assert prefix == "min.js:1"
    assert text.startswith("...") and text.endswith("...")
    assert "NEEDLE" in text
    assert len(text) == 60 + 6


def test_line_numbers_stay_right_across_read_chunks(run: Run, work: Path) -> None:
    lines = [
        f"line {number}" + (" MARK" if number % 7919 == 0 else "") for number in range(1, 300_001)
    ]
    data = "\n".join(lines) + "\n"
    assert len(data) > 2 * CHUNK_BYTES
    (work / "big.txt").write_text(data)
    output = run(SearchText(max_matches=1000), {"pattern": "MARK"}).output.splitlines()
    expected = [f"big.txt:{n}: line {n} MARK" for n in range(7919, 300_001, 7919)]
    assert output[: len(expected)] == expected
    assert output[len(expected)] == f"[{len(expected)} matching lines in 1 file; 1 file searched]"


def test_a_match_spanning_lines_is_not_reported(run: Run, work: Path) -> None:
    (work / "a.txt").write_text("end\nstart\nend start\n")
    output = run(SearchText(), {"pattern": r"end\s+start", "regex": True}).output
    assert output.splitlines()[:2] == [
        "a.txt:3: end start",
        "[1 matching line in 1 file; 1 file searched]",
    ]


def test_errors(run: Run, tree: Path) -> None:
    with pytest.raises(FileToolError) as caught:
        run(SearchText(), {"pattern": "(unclosed", "regex": True})
    assert "The regular expression '(unclosed' is invalid: missing )" in caught.value.model_message
    assert "set regex to false" in caught.value.model_message
    with pytest.raises(FileToolError, match="line break"):
        run(SearchText(), {"pattern": "a\nb"})
    with pytest.raises(BinaryFileError, match=re.escape("'image.png' is a binary file")):
        run(SearchText(), {"pattern": "run", "path": "image.png"})
    with pytest.raises(FileToolError, match="'nope' does not exist"):
        run(SearchText(), {"pattern": "run", "path": "nope"})
    with pytest.raises(FileToolError, match="The glob"):
        run(SearchText(), {"pattern": "run", "glob": "{a"})
    with pytest.raises(InvalidToolArgumentsError, match="pattern"):
        run(SearchText(), {"pattern": ""})
    with pytest.raises(InvalidToolArgumentsError, match="pattern"):
        run(SearchText(), {"pattern": "x" * 1001})


def test_a_catastrophic_pattern_is_stopped_at_the_time_bound_without_holding_the_gil(
    work: Path,
) -> None:
    (work / "evil.txt").write_text("a" * 40 + "!\n")
    tool = SearchText(time_limit=0.5)

    async def turns_until_done(work: Awaitable[T]) -> tuple[T, int]:
        """What ``work`` gives, and how often the event loop turned while it ran."""
        running = asyncio.ensure_future(work)
        turns = 0
        while not running.done():
            await asyncio.sleep(0)
            turns += 1
        return await running, turns

    async def main() -> tuple[ToolResult, int, int]:
        context = ExecutionContext(working_directory=work)
        search = run_tool(tool, {"pattern": "(a|aa)+$", "regex": True}, context)
        result, matching = await turns_until_done(search)
        # The same half second in a thread that surely leaves the GIL free: the yardstick.
        _, free = await turns_until_done(asyncio.to_thread(time.sleep, 0.5))
        return result, matching, free

    result, matching, free = asyncio.run(main())
    assert "[stopped at the 0.5 s bound on matching time; results are partial" in result.output
    assert "matching the pattern in evil.txt took too long" in result.output
    # The engine releases the GIL while it matches, so the event loop kept turning beside the
    # matching thread about as often as beside a sleeping one (counted turns, side by side, so
    # a busy machine slows both alike); an engine holding the GIL leaves it about 2 of 100.
    assert matching > free / 5, (matching, free)


def test_one_match_is_held_to_the_pattern_deadline_of_limits_md(run: Run, work: Path) -> None:
    """docs/limits.md: every pattern gent did not write, search_text's included, matches
    within GENT_PATTERN_TIMEOUT (1 s); the tool's 10 s time_limit bounds a whole call. A
    short deadline stops the catastrophic match long before time_limit (issue 24, section 4).
    """
    (work / "a-fine.txt").write_text("aaa\n")  # searched first: sorted paths
    (work / "evil.txt").write_text("a" * 40 + "!\n")
    set_pattern_timeout(0.05)
    try:
        result = run(SearchText(time_limit=3600), {"pattern": "(a|aa)+$", "regex": True})
    finally:
        set_pattern_timeout(None)
    assert "a-fine.txt:1: aaa" in result.output
    assert (
        "stopped: matching the pattern in evil.txt took longer than 0.05 s (the deadline of "
        "one match, GENT_PATTERN_TIMEOUT); results are partial"
    ) in result.output


def test_the_pattern_deadline_comes_from_the_environment_too(
    run: Run, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (work / "evil.txt").write_text("b" * 30 + "a" * 40 + "!\n")
    monkeypatch.setenv("GENT_PATTERN_TIMEOUT", "0.04")
    result = run(SearchText(), {"pattern": "(a|aa)+$", "regex": True})
    assert "took longer than 0.04 s (the deadline of one match" in result.output
    assert "bound on matching time" not in result.output  # not the 10 s of the whole call


def test_cancellation_stops_a_search(tree: Path) -> None:
    context = ExecutionContext(working_directory=tree)
    context.cancellation.cancel()
    with pytest.raises(asyncio.CancelledError):
        run_tool_sync(SearchText(), {"pattern": "run"}, context)

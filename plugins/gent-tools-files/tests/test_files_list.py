"""``list_dir``: sorted entries, marked directories, globs with ``**``, the entry bound with a
count of what was left out, and nothing skipped silently."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from gent_tools_files import FileToolError, ListDir, SearchText
from gent_tools_files.globs import Glob, GlobError, _fullmatch

from gent_core.bounds import compile_pattern, set_pattern_timeout
from gent_core.context import ExecutionContext
from gent_core.testing import run_tool_sync
from gent_core.tools import ToolResult

Run = Callable[..., ToolResult]


@pytest.fixture
def tree(work: Path) -> Path:
    for path in ["src/pkg/a.py", "src/pkg/b.txt", "src/main.py", "README.md", "docs/guide.md"]:
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(f"{path}\n")
    (work / "Zeta.txt").write_text("z\n")
    (work / ".hidden").write_text("h\n")
    (work / "empty").mkdir()
    (work / ".git" / "objects").mkdir(parents=True)
    (work / ".git" / "config").write_text("[core]\n")
    return work


def test_entries_are_sorted_and_directories_marked(run: Run, tree: Path) -> None:
    assert run(ListDir(), {}).output.splitlines() == [
        ".git/",
        ".hidden",
        "README.md",
        "Zeta.txt",
        "docs/",
        "empty/",
        "src/",
        "[7 entries: 4 directories, 3 files]",
    ]


def test_paths_are_relative_to_the_working_directory(run: Run, tree: Path) -> None:
    assert run(ListDir(), {"path": "src"}).output.splitlines() == [
        "src/main.py",
        "src/pkg/",
        "[2 entries: 1 directory, 1 file]",
    ]


def test_a_glob_filters_one_level(run: Run, tree: Path) -> None:
    assert run(ListDir(), {"glob": "*.md"}).output.splitlines() == [
        "README.md",
        "[1 entry: 0 directories, 1 file]",
    ]


def test_a_double_star_glob_lists_recursively_in_tree_order(run: Run, tree: Path) -> None:
    output = run(ListDir(), {"glob": "**/*.py"}).output.splitlines()
    assert output == [
        "src/main.py",
        "src/pkg/a.py",
        "[2 entries: 0 directories, 2 files]",
        "[not entered (skip_dirs option): .git; name one as the path to look inside]",
    ]


def test_everything_with_double_star(run: Run, tree: Path) -> None:
    output = run(ListDir(), {"path": "src", "glob": "**"}).output.splitlines()
    assert output == [
        "src/main.py",
        "src/pkg/",
        "src/pkg/a.py",
        "src/pkg/b.txt",
        "[4 entries: 1 directory, 3 files]",
    ]


def test_a_skipped_directory_can_be_listed_by_name(run: Run, tree: Path) -> None:
    output = run(ListDir(), {"path": ".git", "glob": "**"}).output.splitlines()
    assert output[:2] == [".git/config", ".git/objects/"]
    assert run(ListDir(skip_dirs=[]), {"glob": "**/config"}).output.splitlines()[0] == (
        ".git/config"
    )


def test_the_entry_bound_says_how_many_were_left_out(run: Run, work: Path) -> None:
    for index in range(25):
        (work / f"f{index:02d}.txt").write_text("x")
    output = run(ListDir(max_entries=10), {}).output.splitlines()
    assert output[:10] == [f"f{index:02d}.txt" for index in range(10)]
    assert output[10] == (
        "[25 entries: 0 directories, 25 files; only the first 10 are shown (15 more left "
        "out): narrow with a glob or list a subdirectory]"
    )


def test_sizes(run: Run, work: Path) -> None:
    (work / "a.bin").write_bytes(b"x" * 1234)
    assert run(ListDir(), {"sizes": True}).output.splitlines()[0] == "a.bin (1,234 bytes)"


def test_links_say_where_they_point(run: Run, work: Path) -> None:
    (work / "d").mkdir()
    (work / "f.txt").write_text("x")
    (work / "to_dir").symlink_to("d")
    (work / "to_file").symlink_to("f.txt")
    (work / "broken").symlink_to("nowhere")
    (work / "escape").symlink_to("/etc")
    (work / "loop").symlink_to("loop")
    assert run(ListDir(), {}).output.splitlines()[:-1] == [
        "broken -> nowhere (broken link)",
        "d/",
        "escape -> /etc (outside the working directory; not followed)",
        "f.txt",
        "loop -> loop (symbolic link loop)",
        "to_dir -> d (link to a directory)",
        "to_file -> f.txt (link to a file)",
    ]


def test_recursive_listing_never_follows_a_directory_link(run: Run, work: Path) -> None:
    (work / "d").mkdir()
    (work / "d" / "inner.txt").write_text("x")
    (work / "d" / "again").symlink_to("..")  # a loop if it were followed
    output = run(ListDir(), {"glob": "**"}).output.splitlines()
    assert output == [
        "d/",
        "d/again -> .. (link to a directory)",
        "d/inner.txt",
        "[3 entries: 1 directory, 1 file, 1 other]",
    ]


def test_names_with_control_characters_stay_on_one_line(run: Run, work: Path) -> None:
    (work / "bad\nname").write_text("x")
    assert run(ListDir(), {}).output.splitlines()[0] == "'bad\\nname'"


def test_empty_directory_and_no_match(run: Run, tree: Path) -> None:
    assert run(ListDir(), {"path": "empty"}).output == "[empty is empty]"
    assert run(ListDir(), {"glob": "*.rs"}).output == (
        "[no entry matches '*.rs' in the working directory]"
    )


def test_errors(run: Run, tree: Path) -> None:
    with pytest.raises(
        FileToolError, match=re.escape("'README.md' is a regular file, not a directory")
    ):
        run(ListDir(), {"path": "README.md"})
    with pytest.raises(FileToolError, match="'nope' does not exist"):
        run(ListDir(), {"path": "nope"})
    with pytest.raises(FileToolError) as caught:
        run(ListDir(), {"glob": "[abc"})
    assert "The glob '[abc' cannot be used: '[' without a closing ']'" in caught.value.model_message
    assert "**" in caught.value.model_message  # the hint says how globs are written


def test_the_listing_does_not_depend_on_the_clock(
    run: Run, tree: Path, request: pytest.FixtureRequest
) -> None:
    """The walk is bounded by entries examined (max_scan), never by seconds."""
    expected = run(ListDir(), {"glob": "**"}).output
    assert "incomplete" not in expected
    request.getfixturevalue("leaping_clock")
    assert run(ListDir(), {"glob": "**"}).output == expected


def test_the_scan_bound_stops_the_walk_and_says_so(run: Run, tree: Path) -> None:
    output = run(ListDir(max_scan=3), {"glob": "**"}).output
    assert output.splitlines()[-1] == (
        "[the walk stopped after examining 3 entries, so the listing is incomplete]"
    )


def test_cancellation_stops_a_listing(tree: Path) -> None:
    context = ExecutionContext(working_directory=tree)
    context.cancellation.cancel()
    with pytest.raises(asyncio.CancelledError):
        run_tool_sync(ListDir(), {"glob": "**"}, context)


# --------------------------------------------------------------------------- globs


@pytest.mark.parametrize(
    ("pattern", "matches", "misses"),
    [
        ("*.py", ["a.py", ".x.py"], ["a.pyc", "src/a.py"]),
        ("**/*.py", ["a.py", "src/a.py", "a/b/c.py"], ["a.txt", "src/a.pyc"]),
        ("src/**", ["src/a", "src/a/b"], ["src", "lib/a"]),
        ("src/**/test_*.py", ["src/test_a.py", "src/x/y/test_b.py"], ["test_a.py", "src/a.py"]),
        ("*.{py,md}", ["a.py", "b.md"], ["c.txt", "d/a.py"]),
        ("te?t.[ch]", ["test.c", "text.h"], ["tet.c", "test.o"]),
        ("[!a]*", ["b", "zz"], ["a", "abc"]),
        ("a\\*", ["a*"], ["ab"]),
    ],
)
def test_glob_semantics(pattern: str, matches: list[str], misses: list[str]) -> None:
    glob = Glob.compile(pattern)
    for path in matches:
        assert glob.match(path), path
    for path in misses:
        assert not glob.match(path), path


def test_a_glob_prunes_directories_it_cannot_match_inside() -> None:
    glob = Glob.compile("src/*/test_*.py")
    assert glob.may_contain("src", 1)
    assert glob.may_contain("src/pkg", 2)
    assert not glob.may_contain("docs", 1)
    assert not glob.may_contain("src/pkg/deep", 3)  # deeper than the pattern


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("", "empty"),
        ("a{b", "'{' without a closing '}'"),
        ("{a,{b}}", "nested"),
        ("../*", "'..'"),
        ("x" * 501, "longer than 500"),
    ],
)
def test_bad_globs(pattern: str, problem: str) -> None:
    with pytest.raises(GlobError, match=problem):
        Glob.compile(pattern)


def test_many_skipped_directories_of_one_name_are_counted(run: Run, work: Path) -> None:
    for package in ["a", "b", "c"]:
        (work / package / "__pycache__").mkdir(parents=True)
    (work / ".venv").mkdir()
    output = run(ListDir(), {"glob": "**/*.py"}).output
    assert output.splitlines()[-1] == (
        "[not entered (skip_dirs option): .venv, 3 __pycache__; name one as the path to look "
        "inside]"
    )


def test_a_glob_that_backtracks_for_hours_in_re_is_matched_with_the_bounded_helper(
    run: Run, work: Path
) -> None:
    """'*a' x 12 then 'b' is [^/]*a[^/]*a...b: Python's re tries every way to split the 200
    'a' of the first name between the twelve stars (hours); the bounded helper's engine
    answers at once, and a match that ran out of time would be an error, not a hang."""
    (work / ("a" * 200 + "bx")).write_text("x\n")
    (work / ("a" * 12 + "b")).write_text("x\n")
    glob = "*a" * 12 + "b"
    listed = run(ListDir(), {"glob": glob}).output.splitlines()
    assert listed[0] == "a" * 12 + "b"
    assert len(listed) == 2
    searched = run(SearchText(), {"pattern": "x", "glob": glob}).output.splitlines()
    assert searched[0] == "a" * 12 + "b:1: x"


def test_a_glob_match_out_of_time_is_a_glob_error() -> None:
    set_pattern_timeout(0.05)
    try:
        with pytest.raises(GlobError, match=r"took longer than 0\.05 s; simplify it") as caught:
            _fullmatch(compile_pattern(r"(a|aa)+$"), "a" * 100 + "b")
    finally:
        set_pattern_timeout(None)
    assert "matching it against 'aaaa" in str(caught.value)

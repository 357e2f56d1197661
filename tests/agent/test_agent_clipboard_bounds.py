"""The clipboard shown each step: bounded reads, regular files only, off the event loop, a
total size limit, and the source of every entry (issue 11, bugs 6 and 7)."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gent_core._agent import Agent
from gent_core._agent import clipboard as clipboard_module
from gent_core._agent.clipboard import MAX_FILE_CHARS, read_clipboard_file
from gent_core.context import Limits
from gent_core.testing import ScriptedModel
from gent_core.tools import ToolResult, tool

MakeAgent = Callable[..., Agent]


def action(tool_name: str, **args: Any) -> str:
    return f"<action>{json.dumps({'tool': tool_name, 'args': args})}</action>"


@tool
def pin(path: str) -> ToolResult:
    """Put a file on the clipboard."""
    return ToolResult(output="pinned", clipboard_files=[Path(path)])


@tool
def remember(text: str) -> ToolResult:
    """Put a text on the clipboard."""
    return ToolResult(output="remembered", clipboard_text=[text])


def run_in_thread(agent: Agent, task: str) -> Any:
    """Run the agent in a daemon thread so that a hang fails the test instead of the suite."""
    outcome: list[Any] = []
    thread = threading.Thread(target=lambda: outcome.append(agent.run_sync(task)), daemon=True)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive(), "the run hangs"
    return outcome[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_fifo_on_the_clipboard_does_not_hang_the_run(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    os.mkfifo(tmp_path / "pipe")
    model = ScriptedModel([action("pin", path="pipe"), "<answer>done</answer>"])
    result = run_in_thread(make_agent(model, tools=[pin]), "q")
    assert result.ok
    shown = model.requests[1].messages[-1].text
    assert "path: pipe\n(not read: it is a named pipe (FIFO), not a regular file)" in shown


def test_a_directory_on_the_clipboard_is_named_not_read(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    (tmp_path / "folder").mkdir()
    model = ScriptedModel([action("pin", path="folder"), "<answer>done</answer>"])
    make_agent(model, tools=[pin]).run_sync("q")
    assert (
        "(not read: it is a directory, not a regular file)" in model.requests[1].messages[-1].text
    )


def test_a_large_file_is_read_with_a_bound(tmp_path: Path) -> None:
    big = tmp_path / "big.log"
    with big.open("wb") as file:
        file.write(b"0123456789" * 2_000_000)  # 20 MB
    tracemalloc.start()
    try:
        text = read_clipboard_file(Path("big.log"), tmp_path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # about 32 kB are read, not the 20 MB file
    assert text.startswith("0123456789" * 10)
    assert text.endswith(f"[... about {20_000_000 - MAX_FILE_CHARS} more bytes cut]")


def test_files_are_read_in_a_worker_thread(
    make_agent: MakeAgent, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.txt").write_text("hello")
    threads: list[str] = []
    real = clipboard_module.read_clipboard_file

    def spy(*args: Any) -> str:
        threads.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(clipboard_module, "read_clipboard_file", spy)
    model = ScriptedModel([action("pin", path="a.txt"), "<answer>done</answer>"])
    make_agent(model, tools=[pin]).run_sync("q")
    assert threads and threading.main_thread().name not in threads


def test_a_file_turned_into_a_link_loop_is_refused_when_shown(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("v1")
    model = ScriptedModel(
        [action("pin", path="notes.txt"), action("remember", text="x"), "<answer>k</answer>"]
    )
    agent = make_agent(model, tools=[pin, remember])

    def swap(event: object) -> None:
        from gent_core._agent import StepStarted

        if isinstance(event, StepStarted) and event.step == 2:
            (tmp_path / "notes.txt").unlink()
            (tmp_path / "notes.txt").symlink_to(tmp_path / "notes.txt")

    result = agent.run_sync("q", on_event=swap)
    assert result.ok
    shown = model.requests[2].messages[-1].text
    assert "(refused: the path runs into a symbolic link loop" in shown


def test_the_clipboard_is_capped_and_old_entries_are_removed(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    outputs = [action("remember", text=f"entry {n} " + "x" * 400) for n in range(6)]
    model = ScriptedModel([*outputs, "<answer>k</answer>"])
    limits = Limits(max_steps=10, max_clipboard_chars=1_000)
    result = make_agent(model, tools=[remember], limits=limits).run_sync("q")
    assert result.ok
    last = model.requests[-1].messages[-1].text
    # newest first: entries 5 and 4 whole (408 characters each), entry 3 cut to what is left
    assert "entry 5" in last and "entry 4" in last and "entry 2" not in last
    assert "entry 3 " + "x" * 176 + "\n[... 224 more characters cut]" in last
    # entries fall out one step at a time: this step removed entry 2
    assert "1 older clipboard entry was removed: the clipboard shows at most 1000" in last
    texts = [record["text"][:7] for record in result.steps[-2].clipboard]
    assert texts == ["entry 3", "entry 4", "entry 5"]


def test_one_huge_clipboard_text_is_cut_when_added(make_agent: MakeAgent, tmp_path: Path) -> None:
    model = ScriptedModel([action("remember", text="y" * 50_000), "<answer>k</answer>"])
    result = make_agent(model, tools=[remember], limits=Limits(max_clipboard_chars=1_000)).run_sync(
        "q"
    )
    [record] = result.steps[0].clipboard
    assert record["text"] == "y" * 1_000 + "\n[... 49000 more characters cut]"


def test_clipboard_entries_name_the_tool_that_added_them(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    (tmp_path / "a.txt").write_text("a")
    model = ScriptedModel(
        [
            "<action>["
            + json.dumps({"tool": "remember", "args": {"text": "t"}})
            + ", "
            + json.dumps({"tool": "pin", "args": {"path": "a.txt"}})
            + "]</action>",
            "<answer>k</answer>",
        ]
    )
    result = make_agent(model, tools=[pin, remember]).run_sync("q")
    assert result.steps[0].clipboard == [
        {"text": "t", "source": "remember"},
        {"path": "a.txt", "source": "pin"},
    ]


def test_reading_the_clipboard_never_blocks_the_event_loop(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x" * 100)
    from gent_core._agent.clipboard import read_clipboard
    from gent_core.context import Clipboard

    clipboard = Clipboard()
    clipboard.add_file(Path("a.txt"), source="t")

    async def check() -> None:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        task = asyncio.ensure_future(ticker())
        view = await read_clipboard(clipboard, tmp_path, 1_000)
        task.cancel()
        assert view.shown[0][1] == "path: a.txt\n" + "x" * 100
        assert ticks > 0  # the loop ran while the file was read

    asyncio.run(check())


@pytest.mark.parametrize("path", ["sub/../notes.txt", "alias.txt"])
def test_clipboard_paths_follow_the_file_tools_rules(
    make_agent: MakeAgent, tmp_path: Path, path: str
) -> None:
    """One confinement rule (the toolkit's Workspace): a '..' that stays inside and a link
    that stays inside are accepted, as the file tools accept them; the file is shown by its
    real path inside the working directory."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "notes.txt").write_text("the notes")
    (tmp_path / "alias.txt").symlink_to("notes.txt")
    model = ScriptedModel([action("pin", path=path), "<answer>done</answer>"])
    result = make_agent(model, tools=[pin]).run_sync("q")
    assert result.ok
    assert "path: notes.txt\nthe notes" in model.requests[1].messages[-1].text


def test_a_clipboard_link_swapped_to_point_outside_is_refused_when_shown(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "secret.txt").write_text("top secret")
    (work / "notes.txt").write_text("v1")
    model = ScriptedModel(
        [action("pin", path="notes.txt"), action("remember", text="x"), "<answer>k</answer>"]
    )
    agent = make_agent(model, tools=[pin, remember], working_directory=work)

    def swap(event: object) -> None:
        from gent_core._agent import StepStarted

        if isinstance(event, StepStarted) and event.step == 2:
            (work / "notes.txt").unlink()
            (work / "notes.txt").symlink_to("../secret.txt")

    agent.run_sync("q", on_event=swap)
    shown = model.requests[2].messages[-1].text
    assert "top secret" not in shown
    assert "(refused: the symbolic link 'notes.txt' points outside the working" in shown

"""SIGTERM and SIGHUP stop a command as Ctrl-C does (issue 24, section 1).

``gent run`` on parts that would run for hours (``tests/cli/slow_plugin.py``) and ``gent chat``
in a pseudo-terminal get the signal once the slow part has started; they end through the same
path as Ctrl-C (one line, the run logged as interrupted) with the exit status 128 + the signal.
A terminal that closes (the pty's master side) sends SIGHUP for real. The waits are guards
against a hang; nothing is timed. (The MCP side, process groups included, is in
``plugins/gent-mcp/tests/test_mcp_signals.py``.)
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_cli_chat import HANG_GUARD, Terminal, start_chat
from tests.cli.test_cli_interrupt import INTERRUPTED, act, gent_run, scripted

pytestmark = [pytest.mark.slow, pytest.mark.alone]  # signals and their timing: one at a time

SIGNALS = pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])


def wait_for(marker: Path, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the slow part never started"
        time.sleep(0.02)


def stop(process: subprocess.Popen[str], number: int) -> tuple[int, str]:
    try:
        process.send_signal(number)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, stderr


CASES: dict[str, dict[str, Any]] = {
    "async tool ignoring its cancellation": {
        "model": scripted(act("stubborn", {})),
        "tools": ["stubborn"],
    },
    "async tool blocking the event loop": {"model": scripted(act("hog", {})), "tools": ["hog"]},
    "model stream ignoring its cancellation": {"model": {"name": "stuck", "marker": "started"}},
}


@SIGNALS
@pytest.mark.parametrize("case", list(CASES))
def test_a_stop_signal_ends_gent_run_as_ctrl_c_does(tmp_path: Path, case: str, number: int) -> None:
    process = gent_run(tmp_path, CASES[case])
    wait_for(tmp_path / "started", process)
    status, stderr = stop(process, number)
    assert status == 128 + number, stderr
    assert INTERRUPTED.fullmatch(stderr.strip()), stderr


def test_a_sighup_that_the_caller_ignores_stays_ignored(tmp_path: Path) -> None:
    """``nohup gent run ...``: SIGHUP was ignored when gent started, and still is; Ctrl-C
    stops the run."""
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # inherited by the child
    try:
        process = gent_run(tmp_path, CASES["async tool ignoring its cancellation"])
    finally:
        signal.signal(signal.SIGHUP, previous)
    wait_for(tmp_path / "started", process)
    process.send_signal(signal.SIGHUP)
    with contextlib.suppress(subprocess.TimeoutExpired):  # it goes on: the signal is ignored
        process.wait(timeout=2)
    assert process.poll() is None, process.communicate()
    status, stderr = stop(process, signal.SIGINT)
    assert status == 130, stderr
    assert INTERRUPTED.fullmatch(stderr.strip()), stderr


@pytest.fixture
def terminal(tmp_path: Path) -> Any:
    config = {
        "model": {"name": "recall", "directory": str(tmp_path)},
        "format": "xml",
        "toolchain": "json",
        "tools": ["calculator"],
    }
    chat = start_chat(tmp_path, config)
    try:
        yield chat
    finally:
        chat.close()


def test_sigterm_at_the_chat_prompt_ends_the_conversation(terminal: Terminal) -> None:
    terminal.expect(">>> ")
    os.kill(terminal.pid, signal.SIGTERM)
    assert terminal.wait() == 143
    assert "gent chat: interrupted" in terminal.seen


def test_sigterm_during_a_chat_turn_ends_the_conversation(terminal: Terminal) -> None:
    """Not only the turn, as Ctrl-C would: the conversation ends."""
    terminal.expect(">>> ")
    terminal.send("hang\r")
    marker = terminal.work / "started"
    deadline = time.monotonic() + HANG_GUARD
    while not marker.exists():
        assert time.monotonic() < deadline, "the hanging turn never started"
        time.sleep(0.02)
    os.kill(terminal.pid, signal.SIGTERM)
    assert terminal.wait() == 143
    assert "turn cancelled" not in terminal.seen


def test_a_closing_terminal_ends_the_conversation_with_sighup(terminal: Terminal) -> None:
    terminal.expect(">>> ")
    os.close(terminal.fd)  # the terminal goes away: the kernel sends SIGHUP
    terminal.fd = os.open(os.devnull, os.O_RDONLY)  # for close() and wait()
    assert terminal.wait() == 129

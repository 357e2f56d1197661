"""``gent chat`` on a terminal (issue 19, item 2): the real command in a pseudo-terminal.

Each test starts ``python -m gent_core chat`` with a pty as its controlling terminal
(:func:`pty.fork`), so what it types goes through the terminal driver as a person's keys do:
Ctrl-C (``\\x03``) becomes SIGINT for the command, Ctrl-D (``\\x04``) the end of input. The
model is ``recall`` (``tests/cli/chat_plugin.py``), which answers from the conversation it is
sent. The 60 s waits only guard against a hang; nothing is timed.
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import select
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gent_core.testing import PluginSandbox
from tests.cli.chat_inprocess import gent_piped, use_recall_model
from tests.cli.chat_plugin import install_chat_plugin

HANG_GUARD = 60.0


class Terminal:
    """The master side of a pty running ``gent chat``."""

    def __init__(self, pid: int, fd: int, work: Path) -> None:
        self.work = work
        self.pid = pid
        self.fd = fd
        self.seen = ""
        self.status: int | None = None

    def expect(self, text: str) -> str:
        """Read until ``text`` appears in what the command wrote after the last match;
        return what was read up to and including it.
        """
        deadline = time.monotonic() + HANG_GUARD
        while text not in self.seen:
            if time.monotonic() >= deadline:
                raise AssertionError(f"never saw {text!r}; saw:\n{self.seen}{self.stacks()}")
            ready, _, _ = select.select([self.fd], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:  # the command ended and closed the terminal
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the command ended before {text!r}; saw:\n{self.seen}")
                self.seen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        end = self.seen.index(text) + len(text)
        read, self.seen = self.seen[:end], self.seen[end:]
        return read

    def stacks(self) -> str:
        """After a hang: what each thread of the command was doing (its faulthandler's dump
        on SIGABRT, read from the terminal), for the failure's message.
        """
        if self.status is not None:
            return ""
        os.kill(self.pid, signal.SIGABRT)
        dump = ""
        while True:
            ready, _, _ = select.select([self.fd], [], [], 5.0)
            if not ready:
                break
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            dump += chunk.decode("utf-8", "replace")
        os.waitpid(self.pid, 0)
        self.status = -signal.SIGABRT
        return f"\n--- the command's threads when it was stopped ---\n{dump}"

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def wait(self) -> int:
        """Wait for the command to exit (reading what it still writes); its exit status."""
        deadline = time.monotonic() + HANG_GUARD
        while self.status is None:
            if time.monotonic() >= deadline:
                raise AssertionError(f"the command did not exit; saw:\n{self.seen}{self.stacks()}")
            with_output, _, _ = select.select([self.fd], [], [], 0.2)
            if with_output:
                with contextlib.suppress(OSError):
                    self.seen += os.read(self.fd, 4096).decode("utf-8", "replace")
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status

    def close(self) -> None:
        if self.status is None:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def start_chat(work: Path, config: dict[str, Any], *arguments: str) -> Terminal:
    (work / "agent.yaml").write_text(json.dumps(config))
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    environment.update(install_chat_plugin(work / "site"), TERM="dumb", PYTHONFAULTHANDLER="1")
    environment["GENT_HOME"] = str(work / "home")  # the run history, kept out of the user's
    command = [sys.executable, "-m", "gent_core", "chat", "agent.yaml", "--no-color", *arguments]
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child becomes the command
        try:
            os.chdir(work)
            os.execve(sys.executable, command, environment)
        finally:
            os._exit(127)
    return Terminal(pid, fd, work)


@pytest.fixture
def chat(tmp_path: Path) -> Iterator[Terminal]:
    config = {
        "model": {"name": "recall", "directory": str(tmp_path)},
        "format": "xml",
        "toolchain": "json",
        "tools": ["calculator"],
    }
    terminal = start_chat(tmp_path, config)
    try:
        yield terminal
    finally:
        terminal.close()


def test_the_second_turn_sees_the_first_turns_answer_and_tool_result(chat: Terminal) -> None:
    chat.expect(">>> ")
    chat.send("compute 6 * 7\r")
    first = chat.expect(">>> ")
    assert "-> calculator" in first
    assert "Answer: tool said:" in first and "42" in first
    chat.send("and now?\r")
    second = chat.expect(">>> ")
    assert "Answer: heard and now?; before: tool said:" in second
    assert "42" in second.split("before:", 1)[1]
    chat.send("!exit\r")
    assert chat.wait() == 0


def test_ctrl_c_cancels_the_turn_and_the_conversation_goes_on(chat: Terminal) -> None:
    chat.expect(">>> ")
    chat.send("kiwi\r")
    chat.expect("Answer: heard kiwi; before: nothing")
    chat.expect(">>> ")
    chat.send("hang\r")
    marker = chat.work / "started"
    deadline = time.monotonic() + HANG_GUARD
    while not marker.exists():  # the model has started its hour of silence
        assert time.monotonic() < deadline, "the hanging turn never started"
        time.sleep(0.02)
    chat.send("\x03")
    chat.expect("gent chat: turn cancelled")
    chat.expect(">>> ")
    chat.send("banana\r")
    # The cancelled turn is left out: the answer before is still the first turn's.
    chat.expect("Answer: heard banana; before: heard kiwi; before: nothing")
    chat.expect(">>> ")
    chat.send("\x04")
    assert chat.wait() == 0


def test_ctrl_d_ends_the_conversation(chat: Terminal) -> None:
    chat.expect(">>> ")
    chat.send("\x04")
    assert chat.wait() == 0


def test_a_line_ending_in_a_backslash_continues_the_message(chat: Terminal) -> None:
    chat.expect(">>> ")
    chat.send("first line\\\r")
    chat.expect("... ")
    chat.send("second line\r")
    chat.expect("Answer: heard first line\nsecond line; before: nothing")
    chat.send("!exit\r")
    assert chat.wait() == 0


def test_a_piped_conversation_with_quiet_prints_each_answer(
    recall: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a terminal (a script feeding the conversation): no prompts, the same turns."""
    code, out, err = gent(
        capsys,
        monkeypatch,
        "chat",
        "agent.yaml",
        "-q",
        stdin="kiwi\nbanana\\\nsplit\n!exit\nnever sent\n",
    )
    assert code == 0, err
    assert out == (
        "heard kiwi; before: nothing\nheard banana\nsplit; before: heard kiwi; before: nothing\n"
    )


# --------------------------------------------------------------------------- --continue
# In-process (gent_core._cli.main.main): the turns come from a piped standard input. The
# tests of the logged turns and of --continue with a run history are gent-history's
# (plugins/gent-history/tests/test_history_chat.py).


@pytest.fixture
def recall(installed: PluginSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The recall model installed, an empty run history, and ``agent.yaml`` on it in the
    current directory (returned).
    """
    return use_recall_model(installed, tmp_path, monkeypatch)


gent = gent_piped


def test_chat_continue_without_a_run_history_says_which_distribution_keeps_one(
    recall: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No plugin keeps a run history here (gent-history is not registered): a chat works
    and says nothing of a history; ``--continue`` is refused, naming gent-history."""
    code, out, err = gent(capsys, monkeypatch, "chat", "agent.yaml", "-q", stdin="kiwi\n")
    assert (code, out, err) == (0, "heard kiwi; before: nothing\n", "")
    code, out, err = gent(capsys, monkeypatch, "chat", "-c", stdin="kiwi\n")
    assert (code, out) == (2, "")
    assert "--continue" in err and "needs the run history" in err and "gent-history" in err
    assert not (recall.parent / "home").exists()


def test_chat_config_flag_is_long_only_and_c_is_continue(
    recall: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = gent(capsys, monkeypatch, "chat", "--config", "agent.yaml", "-q", stdin="x\n")
    assert (code, out) == (0, "heard x; before: nothing\n"), err
    with pytest.raises(SystemExit):
        gent(capsys, monkeypatch, "chat", "--help")
    text = capsys.readouterr().out
    assert "-c, --continue" in text and "-c, --config" not in text

"""``gent chat`` with the run history: its turns logged as one conversation, and
``-c/--continue`` resuming the last logged one (of ``gent chat`` or ``gent run``).

The turns come from a piped standard input, in this process, on the ``recall`` model of the
core's chat tests (``tests/cli/chat_plugin.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gent_core.testing import PluginSandbox
from tests.cli.chat_inprocess import gent_piped, use_recall_model


@pytest.fixture
def recall(installed: PluginSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The recall model installed, an empty run history, and ``agent.yaml`` on it in the
    current directory (returned).
    """
    return use_recall_model(installed, tmp_path, monkeypatch)


gent = gent_piped


def test_every_turn_is_logged_as_one_conversation(
    recall: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turns of a chat are runs of one logged conversation (``gent logs``); a chat with
    --no-log leaves nothing."""

    def run(*arguments: str, stdin: str = "") -> str:
        code, out, err = gent(capsys, monkeypatch, *arguments, stdin=stdin)
        assert code == 0, err
        return out

    run("chat", "agent.yaml", "-q", "--no-log", stdin="unlogged\n")
    assert json.loads(run("logs", "--json")) == []
    run("chat", "agent.yaml", "-q", stdin="kiwi\nbanana\n")
    runs = json.loads(run("logs", "--json"))
    assert sorted(run["task"] for run in runs) == ["banana", "kiwi"]
    assert len({run["conversation_id"] for run in runs}) == 1


def test_chat_continue_resumes_the_last_conversation_and_joins_it(
    recall: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = gent(capsys, monkeypatch, "chat", "agent.yaml", "-q", stdin="kiwi\n")
    assert (code, out) == (0, "heard kiwi; before: nothing\n"), err
    # No CONFIG: the configuration the conversation recorded (the recall model).
    code, out, err = gent(capsys, monkeypatch, "chat", "-c", "--no-color", stdin="banana\n")
    assert code == 0, err
    (first,) = [line for line in err.splitlines() if line.startswith("Continuing")]
    assert first.endswith("(1 earlier turn).")
    assert "heard banana; before: heard kiwi; before: nothing" in out
    code, out, _ = gent(capsys, monkeypatch, "chat", "--continue", "-q", stdin="cherry\n")
    assert out == "heard cherry; before: heard banana; before: heard kiwi; before: nothing\n"
    code, out, _ = gent(capsys, monkeypatch, "logs", "--json")
    runs = json.loads(out)
    assert [run["task"] for run in runs] == ["cherry", "banana", "kiwi"]
    assert len({run["conversation_id"] for run in runs}) == 1
    assert {run["config_name"] for run in runs} == {str(recall)}


def test_chat_continue_counts_the_earlier_turns_of_a_gent_run_conversation(
    recall: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``gent run`` and ``gent chat`` continue the same conversations: -c means one thing."""
    assert gent(capsys, monkeypatch, "run", "agent.yaml", "kiwi", "-q")[0] == 0
    assert gent(capsys, monkeypatch, "run", "-c", "banana", "-q")[0] == 0
    code, out, err = gent(capsys, monkeypatch, "chat", "agent.yaml", "-c", stdin="cherry\n")
    assert code == 0, err
    assert "(2 earlier turns)." in err
    assert "heard cherry; before: heard banana; before: heard kiwi" in out


def test_chat_continue_with_nothing_logged_says_how_to_start(
    recall: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = gent(capsys, monkeypatch, "chat", "-c", stdin="kiwi\n")
    assert (code, out) == (2, "")
    assert "there is no logged conversation to continue" in err and "gent chat" in err
    assert "Traceback" not in err

"""A property of the run history: the task and the answer read back exactly as the run had
them, whatever their text, while the configuration's secret is masked everywhere else."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import pytest
from history_plugin import Spy
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from gent_core.testing import run_cli

# Text a user may type: any character but the surrogates UTF-8 cannot hold.
_NO_SURROGATES: list[Literal["Cs"]] = ["Cs"]
_TEXT = st.text(st.characters(exclude_categories=_NO_SURROGATES), max_size=40)
# Answer text the XML format can carry inside <answer> (no markup characters).
_ANSWER = st.text(
    st.characters(exclude_categories=_NO_SURROGATES, exclude_characters="<>&"), max_size=40
)
_SECRET = st.text(
    st.sampled_from("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"),
    min_size=8,
    max_size=24,
)


def _without_user_text(record: Any) -> Any:
    """``record`` without the task and the answer (the only fields left unredacted)."""
    if isinstance(record, dict):
        return {
            key: _without_user_text(value)
            for key, value in record.items()
            if key not in ("task", "answer")
        }
    if isinstance(record, list):
        return [_without_user_text(item) for item in record]
    return record


@settings(
    max_examples=25,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(secret=_SECRET, before=_TEXT, after=_TEXT, answer=_ANSWER)
def test_task_and_answer_read_back_exactly_and_the_secret_nowhere_else(
    spy: Spy,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    secret: str,
    before: str,
    after: str,
    answer: str,
) -> None:
    monkeypatch.setenv("GENT_HOME", str(tmp_path / "home"))
    task = f"Q {before}{secret}{after}"  # never read as an option
    output = f"<thinking>the key is {secret}</thinking><answer>{secret}{answer}</answer>"
    agent = tmp_path / "agent.yaml"
    spy.outputs = [output]
    agent.write_text(json.dumps({"model": {"name": "keyed", "api_key": secret}}))
    capsys.readouterr()
    code = run_cli(["run", str(agent), task, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    result = json.loads(captured.out)
    assert code == 0 and result["answer"] is not None
    assert run_cli(["logs", "-n", "1", "--json"]) == 0
    (run,) = json.loads(capsys.readouterr().out)
    assert run_cli(["logs", "show", run["id"], "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (run["task"], run["answer"]) == (task, result["answer"])
    header, step, end = shown["records"]
    assert header["task"] == task and end["answer"] == result["answer"]
    assert step["answer"] == result["answer"]
    assert header["config"]["model"]["api_key"] == "***"
    assert secret not in json.dumps(_without_user_text(shown), ensure_ascii=False)

"""Issue 24, "History arguments": what ``gent logs`` is given reaches SQLite only through the
one place that makes a value storable, and every count is bounded.

``gent logs -q $'\\xff'`` (and ``show``, ``--config``) arrive as lone surrogates, which UTF-8
cannot encode; ``-n 9223372036854775808`` does not fit SQLite's 64-bit integers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gent_history.columns import INTEGER_RANGE, bind, storable
from gent_history.logs import MAX_COUNT
from gent_history.store import HistoryStore
from history_helpers import config, gent, logs_json
from history_plugin import Spy

UNDECODABLE = "\udcff"  # what Python makes of the byte 0xff in a command's arguments


@pytest.fixture
def logged(spy: Spy, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """One logged run whose task held an undecodable byte; its id."""
    agent = config(tmp_path / "agent.yaml", "<answer>ok</answer>")
    code, _, err = gent(capsys, "run", agent, f"price {UNDECODABLE} list", "-q")
    assert code == 0, err
    (run,) = logs_json(capsys)
    return str(run["id"])


@pytest.mark.parametrize(
    "arguments",
    [
        ["logs", "-q", UNDECODABLE],
        ["logs", "show", UNDECODABLE],
        ["logs", "--config", UNDECODABLE],
    ],
)
def test_undecodable_arguments_are_answered_not_a_traceback(
    logged: str, capsys: pytest.CaptureFixture[str], arguments: list[str]
) -> None:
    code, out, err = gent(capsys, *arguments)
    assert "Traceback" not in out + err and "UnicodeEncodeError" not in err
    if arguments[1] == "show":  # no run id holds that character: an error, exit 2
        assert code == 2
        assert err.splitlines()[0] == "gent logs show: error: no logged run has the id '\\udcff'"
    else:
        assert code == 0, err


def test_an_undecodable_search_finds_the_run_whose_task_held_that_byte(
    logged: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # variant: a search that holds the byte among words (the column holds U+FFFD for it, as
    # the storable query does; the full-text index takes neither for a word)
    assert [run["id"] for run in logs_json(capsys, "-q", f"price {UNDECODABLE}")] == [logged]
    assert logs_json(capsys, "-q", f"{UNDECODABLE}{UNDECODABLE}") == []


@pytest.mark.parametrize("count", ["9223372036854775808", "99999999999999999999", "-1", "1e3"])
def test_a_count_out_of_range_is_one_line_naming_the_range(
    home: Path, capsys: pytest.CaptureFixture[str], count: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        gent(capsys, "logs", "-n", count)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "OverflowError" not in err
    assert f"expected a whole number of runs from 0 to {MAX_COUNT:,} (0 for all)" in err
    assert f"got {count!r}" in err


def test_a_count_at_the_bound_is_accepted(logged: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert [run["id"] for run in logs_json(capsys, "-n", str(MAX_COUNT))] == [logged]


def test_the_store_binds_every_parameter_storably(tmp_path: Path) -> None:
    # variant: the store itself, given what the command line now refuses
    low, high = INTEGER_RANGE
    assert bind(["a\udcffb", 2**80, -(2**80), 3, None, 1.5]) == (
        "a\ufffdb",
        high,
        low,
        3,
        None,
        1.5,
    )
    assert storable(True) is True
    with HistoryStore(tmp_path / "logs.db") as store:
        run_id = store.start_run(task=f"t {UNDECODABLE}", config_name=UNDECODABLE)
        assert [run.id for run in store.list_runs(limit=2**70, config=UNDECODABLE)] == [run_id]
        assert [run.id for run in store.list_runs(limit=None, query=f"t {UNDECODABLE}")] == [run_id]
        assert store.get_run(run_id[:8].lower()).task == "t \ufffd"
        assert store.records(UNDECODABLE) == []

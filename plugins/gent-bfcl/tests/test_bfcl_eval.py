"""``gent eval bfcl:...``: gent-bfcl's suite source in gent-eval, on the scripted model (the
wiring, the baseline in the same run, the table and the report) and on the bundled model
(slow)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gent_bfcl.evalsource import COLUMNS, load
from gent_eval import SourceOptions, suite_sources

from gent_core.testing import run_cli

DATA = Path(__file__).with_name("data")


def call(tool: str, **args: object) -> str:
    body = json.dumps({"tool": tool, "args": args})
    return f"<thinking>I call {tool}.</thinking>\n<action>\n{body}\n</action>"


BASELINE_OUTPUTS = [
    "[math.factorial(number=5)]",  # simple_python_0: valid
    "Sure, the area is 12.57 square feet.",  # simple_python_1: prose, not decodable
    "[math.factorial(number=3)]",  # multiple_0: the wrong function
]
AGENT_OUTPUTS = [
    call("math.factorial", number=5),  # valid
    call("geometry.area_circle", radius=2.0, units="feet"),  # valid
    call("geometry.area_circle", radius=4.0),  # multiple_0 asks for 3: the wrong value
]


def table_rows(out: str) -> dict[tuple[str, str], list[str]]:
    rows = {}
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.strip("│┃ ").split("│")]
        if len(cells) == len(COLUMNS) and cells[1] in ("simple_python", "multiple"):
            rows[cells[0], cells[1]] = cells
    return rows


def test_the_bfcl_source_is_registered() -> None:
    from gent_bfcl import plugin

    assert suite_sources()["bfcl"] is plugin.load


def test_gent_eval_runs_bfcl_with_the_baseline_and_reports_per_category(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    outputs = BASELINE_OUTPUTS + AGENT_OUTPUTS
    (tmp_path / "agent.yaml").write_text(
        f"model: {{name: scripted, outputs: {json.dumps(outputs)}}}\n"
    )
    suite = f"bfcl:simple_python,multiple@{DATA}"
    code = run_cli(["eval", suite, "agent.yaml", "--limit", "2", "--report", "r.json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    rows = table_rows(captured.out)
    assert rows["bfcl-prompt", "simple_python"][2:6] == ["2", "1/2 50%", "9%-91%", "50%"]
    assert rows["bfcl-prompt", "simple_python"][6] == "unparsable 50%"
    assert rows["bfcl-prompt", "multiple"][3:7] == ["0/1 0%", "0%-79%", "0%", "wrong_function 100%"]
    assert rows["agent", "simple_python"][3:7] == ["2/2 100%", "34%-100%", "0%", "-"]
    assert rows["agent", "multiple"][6] == "wrong_value 100%"
    assert "bfcl-prompt: BFCL's own prompt mode" in captured.out
    # Native calling needs a server: on the scripted model it is skipped, with a note.
    assert "native-fc: skipped, the model is 'scripted', not a server" in captured.out
    assert "bfcl-prompt\tsimple_python_0\tvalid" in captured.err  # progress, task by task

    report: dict[str, Any] = json.loads((tmp_path / "r.json").read_text())
    assert report["suite"] == "bfcl:simple_python,multiple"
    assert set(report["summary"]) == {"bfcl-prompt", "agent"}
    assert report["baselines"]["bfcl-prompt"]["ran"] is True
    assert report["baselines"]["native-fc"]["ran"] is False
    assert "needs an OpenAI-compatible server" in report["baselines"]["native-fc"]["note"]
    simple = report["summary"]["agent"]["simple_python"]
    assert (simple["tasks"], simple["valid"], simple["accuracy"]) == (2, 2, 1.0)
    assert simple["tokens_per_task"][0] > 0 and simple["seconds_per_task"] >= 0
    assert [(r["config"], r["id"], r["kind"]) for r in report["results"]] == [
        ("bfcl-prompt", "simple_python_0", None),
        ("bfcl-prompt", "simple_python_1", "unparsable"),
        ("bfcl-prompt", "multiple_0", "wrong_function"),
        ("agent", "simple_python_0", None),
        ("agent", "simple_python_1", None),
        ("agent", "multiple_0", "wrong_value"),
    ]


def test_every_and_limit_choose_the_tasks_per_category() -> None:
    evaluation = load(f"simple_python,parallel@{DATA}", SourceOptions(every=2))
    assert [task.id for task in evaluation.selected] == [
        "simple_python_0",
        "simple_python_2",
        "parallel_0",
    ]
    assert evaluation.tasks == 3


def test_bad_selectors_are_usage_errors_that_say_what_is_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["eval", "bfcl:simple_java", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "bfcl:simple_java" in err and "simple_python" in err and "Traceback" not in err
    assert run_cli(["eval", f"bfcl:simple_python@{tmp_path / 'none'}", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "none") in err and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.llama
def test_gent_eval_bfcl_on_the_bundled_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("gent_llamacpp")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "agent.yaml").write_text("model: {name: llamacpp, seed: 1}\n")
    suite = f"bfcl:simple_python@{DATA}"
    arguments = ["eval", suite, "agent.yaml", "--limit", "2", "--max-tokens", "120"]
    assert run_cli([*arguments, "--report", "r.json", "--no-progress"]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    assert [(r["config"], r["id"]) for r in report["results"]] == [
        ("bfcl-prompt", "simple_python_0"),
        ("bfcl-prompt", "simple_python_1"),
        ("agent", "simple_python_0"),
        ("agent", "simple_python_1"),
    ]
    for result in report["results"]:
        assert result["kind"] != "model_error", result["message"]
        assert result["output"] and result["output_tokens"] and result["seconds"] > 0
    assert set(report["summary"]) == {"bfcl-prompt", "agent"}
    assert "agent" in capsys.readouterr().out


def test_pick_writes_the_configuration_with_the_best_accuracy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gent_core import load_config

    monkeypatch.chdir(tmp_path)
    wrong = [call("math.factorial", number=4), call("geometry.area_circle", radius=9.0)]
    bad = BASELINE_OUTPUTS[:2] + wrong  # the first configuration's model serves the baseline
    (tmp_path / "bad.yaml").write_text(f"model: {{name: scripted, outputs: {json.dumps(bad)}}}\n")
    good = AGENT_OUTPUTS[:2]
    (tmp_path / "good.yaml").write_text(f"model: {{name: scripted, outputs: {json.dumps(good)}}}\n")
    suite = f"bfcl:simple_python@{DATA}"
    code = run_cli(["eval", suite, "bad.yaml", "good.yaml", "--limit", "2", "--pick", "best.yaml"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "picked: good -> best.yaml" in captured.err
    text = (tmp_path / "best.yaml").read_text()
    assert "the best of 2 configurations on bfcl:simple_python" in text
    assert any(line.startswith("# bfcl-prompt") for line in text.splitlines())
    assert load_config(tmp_path / "best.yaml").config == load_config(tmp_path / "good.yaml").config


def test_baseline_chooses_the_baselines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "agent.yaml").write_text(
        f"model: {{name: scripted, outputs: {json.dumps(AGENT_OUTPUTS[:1])}}}\n"
    )
    suite = f"bfcl:simple_python@{DATA}"
    arguments = ["eval", suite, "agent.yaml", "--limit", "1", "--report", "r.json"]
    assert run_cli([*arguments, "--baseline", "none"]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["baselines"] == {} and set(report["summary"]) == {"agent"}
    assert "bfcl-prompt" not in capsys.readouterr().out
    assert run_cli([*arguments, "--baseline", "native", "--no-progress"]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    assert list(report["baselines"]) == ["native-fc"] and set(report["summary"]) == {"agent"}
    capsys.readouterr()


def test_an_unknown_baseline_is_a_usage_error_that_says_what_is_accepted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_cli(["eval", f"bfcl:simple_python@{DATA}", "--baseline", "fc", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "'fc'" in err and "prompt" in err and "native" in err and "Traceback" not in err
    assert run_cli(["eval", "evals/none.yaml", "--baseline", "prompt", "--no-progress"]) == 2
    assert "--baseline applies to suite sources" in capsys.readouterr().err


def test_pick_says_when_a_baseline_beat_every_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    right = ["[math.factorial(number=5)]", "[geometry.area_circle(radius=2.0, units='feet')]"]
    wrong = [call("math.factorial", number=4), call("geometry.area_circle", radius=9.0)]
    outputs = right + wrong  # the baseline first, on the first configuration's model
    (tmp_path / "a.yaml").write_text(f"model: {{name: scripted, outputs: {json.dumps(outputs)}}}\n")
    suite = f"bfcl:simple_python@{DATA}"
    code = run_cli(["eval", suite, "a.yaml", "--limit", "2", "--pick", "best.yaml"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "baselines on the same model: bfcl-prompt 100%; 'a' 0%." in captured.err
    assert "the baseline 'bfcl-prompt' scored higher than every configuration" in captured.err
    text = (tmp_path / "best.yaml").read_text()
    assert "# baselines on the same model: bfcl-prompt 100%; 'a' 0%." in text

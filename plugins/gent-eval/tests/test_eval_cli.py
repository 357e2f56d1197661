"""``gent eval`` end to end on the built-in scripted model: table, reports, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from gent_core.testing import run_cli as main

if TYPE_CHECKING:
    from gent_eval.records import RunRecord

SUITE = """\
name: cli-sample
defaults: {tools: [calculator], max_steps: 3}
tasks:
  - id: multiply
    text: What is 17 * 23?
    checks: [{number: 391}, {tool_called: calculator}]
  - id: add
    text: What is 2 + 2?
    checks: [{number: 4}]
"""

CALL = (
    '<thinking>x</thinking><action>{"tool": "calculator", "args": {"expression": "17*23"}}</action>'
)


def config(outputs: list[str]) -> str:
    lines = "\n".join(f"    - {json.dumps(output)}" for output in outputs)
    return f"model:\n  name: scripted\n  outputs:\n{lines}\nformat: xml\ntoolchain: json\n"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "suite.yaml").write_text(SUITE)
    outputs = [CALL, "<answer>It is 391.</answer>", "<answer>It is 5.</answer>"]
    (tmp_path / "agent.yaml").write_text(config(outputs))
    (tmp_path / "short.yaml").write_text(config([CALL]))  # runs out of outputs: a model error
    return tmp_path


def gent_eval(*args: str) -> int:
    return main(["eval", *args, "--no-progress"])


def test_table_and_exit_0_whatever_the_success(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert gent_eval("suite.yaml", "agent.yaml", "--transcripts", "runs") == 0
    captured = capsys.readouterr()
    row = next(line for line in captured.out.splitlines() if "agent" in line and "%" in line)
    cells = [cell.strip() for cell in row.strip("│┃ ").split("│")]
    assert cells[:3] == ["agent", "50% (1/2)", "9%-91%"]
    assert cells[3] == "1.50"  # mean steps: 2 and 1
    assert cells[4:6] == ["0", "0"]
    assert cells[-1] == "0"
    assert "2 runs, 1 failed, 0 could not run; transcripts in runs" in captured.err
    assert sorted(p.name for p in (files / "runs" / "agent").iterdir()) == [
        "add-r1.jsonl",
        "multiply-r1.jsonl",
    ]


def test_default_transcripts_folder_is_timestamped(files: Path) -> None:
    assert gent_eval("suite.yaml", "agent.yaml") == 0
    (folder,) = (files / "gent-eval").iterdir()
    assert folder.name.startswith("cli-sample-")
    assert len(list((folder / "agent").iterdir())) == 2


def test_exit_1_when_a_run_could_not_run(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert gent_eval("suite.yaml", "short.yaml") == 1
    assert "2 runs, 0 failed, 2 could not run" in capsys.readouterr().err


@pytest.mark.parametrize(("rate", "code"), [("0.5", 0), ("50%", 0), ("0.6", 3), ("100%", 3)])
def test_min_success_gate(
    files: Path, capsys: pytest.CaptureFixture[str], rate: str, code: int
) -> None:
    assert gent_eval("suite.yaml", "agent.yaml", "--min-success", rate) == code
    if code == 3:
        assert "below --min-success" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.yaml"], "suite file not found"),
        (["suite.yaml", "nope.yaml"], "config file not found"),
        (["suite.yaml", "agent.yaml", "--matrix", "format"], "--matrix: expected KEY=VALUE"),
        (
            ["suite.yaml", "agent.yaml", "--matrix", "format=xml", "--matrix", "format=markdown"],
            "given twice",
        ),
        (["suite.yaml", "agent.yaml", "--matrix", "format=xmll"], "no format named 'xmll'"),
        (["suite.yaml", "agent.yaml", "--report", "out.txt"], "name it .md or .json"),
        (["suite.yaml", "agent.yaml", "--task", "zzz*"], "no task of suite.yaml matches"),
    ],
)
def test_usage_errors_exit_2(
    files: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert gent_eval(*args) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "args", [["--repeat", "0"], ["--min-success", "2"], ["--concurrency", "x"]]
)
def test_bad_option_values_exit_2(files: Path, args: list[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        gent_eval("suite.yaml", "agent.yaml", *args)
    assert caught.value.code == 2


def test_task_selection(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert gent_eval("suite.yaml", "agent.yaml", "--task", "mult*") == 0
    assert "1 runs, 0 failed" in capsys.readouterr().err


def test_markdown_report_with_chart(files: Path) -> None:
    pytest.importorskip("matplotlib")
    assert (
        gent_eval("suite.yaml", "agent.yaml", "--report", "out/report.md", "--transcripts", "runs")
        == 0
    )
    text = (files / "out" / "report.md").read_text()
    assert text.startswith("# gent eval: cli-sample\n")
    assert "![Success rate per configuration](report.png)" in text
    assert "| agent | 50% (1/2) | 9%-91% | 1.50 | 0 | 0 |" in text
    assert "| multiply | 1/1 |" in text and "| add | 0/1 |" in text
    assert "- `agent` / `add` #1 failed: answer has the number 4" in text
    assert "([transcript](../runs/agent/add-r1.jsonl))" in text
    assert (files / "out" / "report.png").read_bytes().startswith(b"\x89PNG")


def test_markdown_report_without_matplotlib(
    files: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert gent_eval("suite.yaml", "agent.yaml", "--report", "report.md") == 0
    assert (
        "matplotlib is not installed (pip install 'gent-eval[report]')" in capsys.readouterr().err
    )
    text = (files / "report.md").read_text()
    assert "![" not in text
    assert "| agent | 50% (1/2) |" in text
    assert not (files / "report.png").exists()


def test_json_report(files: Path) -> None:
    assert gent_eval("suite.yaml", "agent.yaml", "--report", "report.json", "--repeat", "1") == 0
    data = json.loads((files / "report.json").read_text())
    assert data["suite"] == "cli-sample"
    assert data["tasks"] == ["multiply", "add"]
    (summary,) = data["summary"]
    assert (summary["runs"], summary["passed"], summary["success_rate"]) == (2, 1, 0.5)
    assert summary["ci95"] == pytest.approx([0.0945, 0.9055], abs=1e-4)
    assert [run["status"] for run in data["runs"]] == ["passed", "failed"]
    assert data["runs"][0]["checks"][0] == {
        "check": "answer has the number 391 (+/- 1e-06)",
        "passed": True,
        "detail": "",
    }
    assert data["configurations"][0]["config"]["model"]["name"] == "scripted"


def test_report_format_option_overrides_the_extension(files: Path) -> None:
    assert (
        gent_eval("suite.yaml", "agent.yaml", "--report", "r.out", "--report-format", "json") == 0
    )
    assert json.loads((files / "r.out").read_text())["suite"] == "cli-sample"


def test_help_names_the_default_agent_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    out = capsys.readouterr().out
    assert "Without CONFIG the built-in agent is evaluated" in out
    assert "exit codes:" in out


def test_labels_with_brackets_are_shown_as_written(
    files: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["suite.yaml", "agent.yaml", "--matrix", "tools=[calculator]", "--task", "add"]
    assert gent_eval(*args) == 0
    assert "tools=[calculator]" in capsys.readouterr().out


def test_ctrl_c_during_the_runs_reports_the_runs_that_ended_and_exits_130(
    files: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after the first run: the table, the count and the report cover that run, no
    config is picked, and the exit code is 130."""
    from gent_eval import cli

    finished = cli._Progress.run_finished

    def interrupt_after_the_first_run(self: cli._Progress, record: RunRecord) -> None:
        finished(self, record)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli._Progress, "run_finished", interrupt_after_the_first_run)
    args = ("suite.yaml", "agent.yaml", "--report", "report.json", "--pick", "best.yaml")
    assert gent_eval(*args, "--transcripts", "runs") == 130
    err = capsys.readouterr().err
    assert "1 runs, 0 failed, 0 could not run; transcripts in runs" in err
    assert err.rstrip().endswith("gent eval: interrupted")
    data = json.loads((files / "report.json").read_text())
    assert [run["status"] for run in data["runs"]] == ["passed"]
    assert not (files / "best.yaml").exists()

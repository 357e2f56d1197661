"""The runner on scripted models: counts, repeats, transcripts, files, concurrency, errors."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from eval_doubles import Script, answer, call, configurations, sandbox
from gent_eval.loading import parse_suite
from gent_eval.records import RunRecord
from gent_eval.runner import EvalRunner, concurrency_limit

from gent_core import ConfigError
from gent_core.testing import load_transcript

SUITE = """\
tasks:
  - id: right
    text: What is 6 times 7?
    checks: [{number: 42}, {tool_called: calculator}]
  - id: wrong
    text: What is 2 plus 2?
    checks: [{number: 4}, {tool_called: calculator}]
  - id: no-tool
    text: What is 3 plus 3?
    checks: [{number: 6}, {tool_called: calculator}]
  - id: stuck
    text: Loop forever.
    max_steps: 2
    checks: [{contains: x}]
"""

SCRIPTS = {
    "What is 6 times 7?": [call("calculator", expression="6*7"), answer("It is 42.")],
    "What is 2 plus 2?": [call("calculator", expression="2+2"), answer("It is 5.")],
    "What is 3 plus 3?": [answer("It is 6.")],
    "Loop forever.": [call("calculator", expression="1+1")] * 5,
}


def run(script: Script, suite_text: str = SUITE, **options: object) -> tuple[object, EvalRunner]:
    box = sandbox(script)
    runner = EvalRunner(
        parse_suite(suite_text),
        options.pop("configs", None) or configurations(),  # type: ignore[arg-type]
        registry=box.registry(),
        plugin_manager=box.manager,
        **options,  # type: ignore[arg-type]
    )
    return asyncio.run(runner.run()), runner


def by_task(records: list[RunRecord]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for record in sorted(records, key=lambda r: (r.task, r.repeat)):
        found.setdefault(record.task, []).append(record.status)
    return found


def test_counts_statuses_and_statistics(tmp_path: Path) -> None:
    script = Script(SCRIPTS)
    result, _ = run(script, transcripts=tmp_path)
    records = result.records  # type: ignore[attr-defined]
    assert by_task(records) == {
        "right": ["passed"],
        "wrong": ["failed"],
        "no-tool": ["failed"],
        "stuck": ["failed"],
    }
    stuck = next(r for r in records if r.task == "stuck")
    assert (stuck.stop_reason, stuck.steps, stuck.tool_calls) == ("max_steps", 2, 2)
    wrong = next(r for r in records if r.task == "wrong")
    assert [check.passed for check in wrong.checks] == [False, True]
    (summary,) = result.summaries()  # type: ignore[attr-defined]
    assert (summary.runs, summary.passed, summary.errors) == (4, 1, 0)
    assert summary.mean_steps == (2 + 2 + 1 + 2) / 4
    assert summary.input_tokens > 0 and summary.output_tokens > 0
    # one model loaded and closed for the configuration, shared by every run
    assert len(script.loaded) == 1
    assert script.loaded[0].closes == 1


def test_repeat_runs_every_task_k_times_under_every_configuration(tmp_path: Path) -> None:
    script = Script(SCRIPTS)
    configs = configurations(axes=[("toolchain", ["json"]), ("thinking", [True, False])])
    result, _ = run(script, repeat=3, configs=configs, transcripts=tmp_path)
    records = result.records  # type: ignore[attr-defined]
    assert len(records) == 4 * 3 * 2
    for label in ("toolchain=json thinking=true", "toolchain=json thinking=false"):
        mine = [r for r in records if r.configuration == label]
        assert sorted((r.task, r.repeat) for r in mine) == sorted(
            (task, k) for task in ("right", "wrong", "no-tool", "stuck") for k in (1, 2, 3)
        )
    assert len(script.loaded) == 2  # one model per configuration


def test_transcripts_are_readable_and_runs_jsonl_lists_every_verdict(tmp_path: Path) -> None:
    result, _ = run(Script(SCRIPTS), transcripts=tmp_path)
    record = next(r for r in result.records if r.task == "wrong")  # type: ignore[attr-defined]
    path = Path(record.transcript)
    assert path == tmp_path / "agent" / "wrong-r1.jsonl"
    transcript = load_transcript(path)
    assert transcript.task == "What is 2 plus 2?"
    assert transcript.finished and len(transcript.steps) == 2
    lines = [json.loads(line) for line in (tmp_path / "runs.jsonl").read_text().splitlines()]
    assert sorted(line["task"] for line in lines) == ["no-tool", "right", "stuck", "wrong"]
    wrong = next(line for line in lines if line["task"] == "wrong")
    assert wrong == record.to_dict()
    assert wrong["status"] == "failed"
    assert [check["passed"] for check in wrong["checks"]] == [False, True]


def test_no_transcripts_folder_keeps_none() -> None:
    result, _ = run(Script(SCRIPTS))
    assert all(r.transcript is None for r in result.records)  # type: ignore[attr-defined]


def test_task_files_are_written_into_a_fresh_working_directory(tmp_path: Path) -> None:
    suite = """\
files: {data/in.txt: "numbers"}
tasks:
  - id: write
    text: Write the file.
    files: {extra.txt: "more"}
    checks:
      - file: {path: data/in.txt, contains: numbers}
      - file: extra.txt
      - file: {path: made.txt, exists: false}
"""
    script = Script({"Write the file.": [answer("done")]})
    result, _ = run(script, suite_text=suite, transcripts=tmp_path, repeat=2)
    assert [r.status for r in result.records] == ["passed", "passed"]  # type: ignore[attr-defined]
    workdir = tmp_path / "workdirs" / "agent" / "write-r1"
    assert (workdir / "data" / "in.txt").read_text() == "numbers"


def test_in_process_back_end_runs_one_at_a_time_with_a_note(tmp_path: Path) -> None:
    script = Script(SCRIPTS, max_concurrent_requests=1)
    result, _ = run(script, concurrency=4, repeat=2)
    assert script.most_in_flight == 1
    assert result.notes == [  # type: ignore[attr-defined]
        "agent: the back end (ByTaskModel) serves 1 request(s) at a time, so its runs were "
        "run 1 at a time instead of 4"
    ]
    assert len(result.records) == 8  # type: ignore[attr-defined]


def test_concurrent_back_end_gets_concurrent_runs() -> None:
    script = Script(SCRIPTS, barrier=3)
    result, _ = run(script, concurrency=3, repeat=2)
    assert script.most_in_flight == 3
    assert result.notes == []  # type: ignore[attr-defined]
    assert [r.status for r in result.records].count("passed") == 2  # type: ignore[attr-defined]


def test_concurrency_limit_reads_the_declared_attribute() -> None:
    script = Script({}, max_concurrent_requests=2)
    assert concurrency_limit(script.model()) == 2
    assert concurrency_limit(Script({}).model()) is None


def test_model_that_cannot_load_makes_every_run_an_error() -> None:
    result, _ = run(Script(SCRIPTS, fail_load=True))
    records = result.records  # type: ignore[attr-defined]
    assert {r.status for r in records} == {"error"}
    assert "cannot reach the server" in records[0].error
    (summary,) = result.summaries()  # type: ignore[attr-defined]
    assert (summary.runs, summary.errors, summary.rate) == (0, 4, None)


def test_run_timeout_is_an_error_and_the_others_go_on() -> None:
    suite = "tasks:\n  - {id: slow, text: Wait., checks: [{contains: x}]}\n"
    result, _ = run(Script({}, hang=True), suite_text=suite, run_timeout=0.2)
    (record,) = result.records  # type: ignore[attr-defined]
    assert record.status == "error"
    assert "longer than 0.2 s" in record.error


def test_unknown_tool_in_a_task_fails_before_anything_runs() -> None:
    script = Script(SCRIPTS)
    suite = "tasks:\n  - {id: t, text: hi, tools: [calculater]}\n"
    with pytest.raises(ConfigError) as caught:
        run(script, suite_text=suite)
    message = str(caught.value)
    assert "no tool named 'calculater' (did you mean 'calculator'?)" in message
    assert "the tools of task 't'" in message
    assert script.calls == 0


def test_model_error_during_a_run_is_an_error_not_a_failure() -> None:
    class Broken(Script):
        def model(self):  # type: ignore[no-untyped-def]
            model = super().model()

            async def stream(request):  # type: ignore[no-untyped-def]
                from gent_core.errors import ModelError

                if request is not None:
                    raise ModelError("the server went away")
                yield  # pragma: no cover

            model.stream = stream  # type: ignore[method-assign]
            return model

    result, _ = run(Broken(SCRIPTS))
    assert {r.status for r in result.records} == {"error"}  # type: ignore[attr-defined]
    assert "the server went away" in result.records[0].error  # type: ignore[attr-defined]


def test_shipped_files_suite_with_the_real_file_tools(tmp_path: Path) -> None:
    pytest.importorskip("gent_tools_files")
    from gent_eval.loading import load_suite

    suite_path = Path(__file__).resolve().parents[3] / "evals" / "files-tools.yaml"
    suite = load_suite(suite_path).select(["write-hello", "edit-port"])
    write = {"path": "hello.txt", "content": "Hello, world!\n"}
    wrong_edit = {
        "path": "config.ini",
        "old_text": "host = localhost",
        "new_text": "host = 0.0.0.0",
    }
    script = Script(
        {
            suite.tasks[0].text: [call("write_file", **write), answer("Done.")],
            suite.tasks[1].text: [call("edit_file", **wrong_edit), answer("Done.")],
        }
    )
    box = sandbox(script)
    runner = EvalRunner(
        suite,
        configurations("model: bytask\nformat: xml\ntoolchain: json\n"),
        registry=box.registry(),
        plugin_manager=box.manager,
        transcripts=tmp_path,
    )
    result = asyncio.run(runner.run())
    status = {r.task: r for r in result.records}
    assert status["write-hello"].status == "passed"
    edit = status["edit-port"]
    assert edit.status == "failed"
    assert "config.ini" in edit.failure() and "lacks 'port = 9000'" in edit.failure()
    workdir = tmp_path / "workdirs" / "agent"
    assert (workdir / "write-hello-r1" / "hello.txt").read_text() == "Hello, world!\n"
    assert "host = 0.0.0.0" in (workdir / "edit-port-r1" / "config.ini").read_text()
    assert (workdir / "edit-port-r1" / "poem.txt").exists()  # the suite's files too

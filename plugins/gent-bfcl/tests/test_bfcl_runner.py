"""BFCL's prompt mode as a baseline: the prompt BFCL sends, the raw prompt a base model reads,
and per-task results (the slow agreement test compares the prompt with BFCL's on every task).
"""

from __future__ import annotations

import asyncio
import copy
import io
import json
from pathlib import Path

import pytest
from gent_bfcl import bfcl_messages, load_category, load_tasks, system_prompt
from gent_bfcl.__main__ import main
from gent_bfcl.prompt import PYTHON_HINT
from gent_bfcl.runner import BFCL_TEMPERATURE, request_for, run_baseline, summarize
from gent_bfcl.verdict import FailureKind

from gent_core import Registry, build_plugin_manager
from gent_core.testing import ScriptedModel

DATA = Path(__file__).with_name("data")


def test_the_system_prompt_is_bfcls() -> None:
    task = load_category("simple_python", DATA)[0]
    before = copy.deepcopy(task.functions)
    (system, user) = bfcl_messages(task.functions, task.question[0])
    assert task.functions == before  # the hint is added to a copy
    assert system["role"] == "system" and user == task.question[0][0]
    prompt = system["content"]
    assert prompt.startswith(
        "You are an expert in composing functions.You are given a question and a set of "
        "possible functions."
    )
    assert (
        "you MUST put it in the format of [func_name1(params_name1=params_value1, "
        "params_name2=params_value2...), func_name2(params)].  You SHOULD NOT include"
    ) in prompt
    assert (
        "\n\nHere is a list of functions in json format that you can invoke.\n[\n    {\n" in prompt
    )
    assert prompt.endswith("\n    }\n]\n")
    docs = json.loads(prompt.split("that you can invoke.\n", 1)[1])
    assert docs[0]["description"] == "Calculate the factorial of a number." + PYTHON_HINT
    assert system_prompt(task.functions) != prompt  # without the hint


def test_a_system_message_of_the_task_follows_bfcls() -> None:
    task = load_category("simple_python", DATA)[2]
    messages = bfcl_messages(task.functions, task.question[0])
    assert [m["role"] for m in messages] == ["system", "user"]
    assert messages[0]["content"].endswith("\n\nBe brief.")


def test_a_base_model_reads_bfcls_prompt_as_a_plain_transcript() -> None:
    """The bundled model is a base model without a chat template: the llamacpp back end
    renders the request as a transcript (no few-shot example, no grammar)."""
    pytest.importorskip("gent_llamacpp")
    model = Registry.from_plugin_manager(build_plugin_manager()).create("model", "llamacpp")
    task = load_category("multiple", DATA)[0]
    request = request_for(task, max_tokens=64)
    system = bfcl_messages(task.functions, task.question[0])[0]["content"]
    assert model.render_request(request) == (
        f"{system.strip()}\n\nUser: Area of a circle of radius 3?\n\nAssistant:"
    )
    assert model.grammar(request.structure) is None
    assert request.temperature == BFCL_TEMPERATURE and request.max_tokens == 64


def test_results_per_task() -> None:
    tasks = load_tasks(["simple_python", "parallel", "irrelevance"], DATA, limit=1)
    model = ScriptedModel(
        [
            "```\n[math.factorial(number=5)]\n```",  # valid (fences stripped)
            "[math.factorial(number=3), math.factorial(number=4)]",  # one call missing
            "Shakespeare wrote Hamlet.",  # irrelevance: not decodable, so no call: valid
        ]
    )
    results = asyncio.run(run_baseline(model, tasks))
    assert [(r.task_id, r.verdict.valid, r.verdict.kind) for r in results] == [
        ("simple_python_0", True, None),
        ("parallel_0", False, FailureKind.WRONG_COUNT),
        ("irrelevance_0", True, None),
    ]
    first = results[0]
    assert first.calls == [{"math.factorial": {"number": 5}}]
    assert first.output_tokens == 3 and first.input_tokens is not None and first.seconds >= 0
    assert results[2].calls is None
    assert results[2].verdict.undecoded_no_call  # valid by BFCL's rule, and reported as such
    assert not results[0].verdict.undecoded_no_call
    request = model.requests[0]
    assert request.structure is None and [m.role for m in request.messages] == ["system", "user"]
    summary = summarize(results)
    assert summary["parallel"]["failures"] == {"wrong_count": 1}
    assert (summary["simple_python"]["tasks"], summary["simple_python"]["valid"]) == (1, 1)
    assert summary["irrelevance"]["undecoded_no_call"] == 1


def test_unparsable_outputs_and_failing_models_are_results() -> None:
    tasks = load_tasks(["simple_python"], DATA, limit=2)
    results = asyncio.run(run_baseline(ScriptedModel(["The answer is 120."]), tasks))
    assert results[0].verdict.kind is FailureKind.UNPARSABLE
    assert "cannot decode" in results[0].verdict.message
    assert results[1].verdict.kind is FailureKind.MODEL_ERROR  # no scripted output left
    assert results[1].to_dict()["kind"] == "model_error"


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    records = tmp_path / "results.jsonl"
    code = main(
        [
            "multiple",
            "--data",
            str(DATA),
            "--model",
            "scripted",
            "-o",
            'outputs=["x"]',
            "--jsonl",
            str(records),
        ],
        out,
    )
    assert code == 0
    assert out.getvalue().startswith("bfcl-prompt\tmultiple_0\tinvalid unparsable\t")
    assert json.loads(records.read_text())["kind"] == "unparsable"
    assert main(["simple", "--data", str(DATA)], out) == 2
    assert "unknown BFCL category 'simple'" in capsys.readouterr().err
    assert main(["multiple", "--data", str(tmp_path)], out) == 2
    assert "no file for the BFCL category" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.llama
def test_the_bundled_model_runs_the_baseline() -> None:
    pytest.importorskip("gent_llamacpp")
    model = Registry.from_plugin_manager(build_plugin_manager()).create("model", "llamacpp", seed=1)
    tasks = load_tasks(["simple_python"], DATA, limit=1)
    try:
        (result,) = asyncio.run(run_baseline(model, tasks, max_tokens=24))
    finally:
        asyncio.run(model.aclose())
    assert result.verdict.kind is not FailureKind.MODEL_ERROR, result.verdict.message
    assert result.output_tokens and 0 < result.output_tokens <= 24
    assert result.input_tokens and result.input_tokens > 100


def test_the_table_says_which_irrelevance_tasks_only_the_decoder_made_valid() -> None:
    from gent_bfcl.evalsource import report_rows

    tasks = load_tasks(["irrelevance"], DATA, limit=1)
    undecoded = asyncio.run(run_baseline(ScriptedModel(["Shakespeare wrote Hamlet."]), tasks))
    called = asyncio.run(run_baseline(ScriptedModel(["[math.factorial(number=5)]"]), tasks))
    [row] = report_rows(undecoded + called)
    assert row[3] == "1/2 50% (1 undecoded)"

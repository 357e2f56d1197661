"""gent's own agent on BFCL: the task's functions as declared tools (BFCL's names, dots and
all), the first step judged by the checker, copies and repairs counted; ``python -m gent_bfcl
gent`` on the scripted model, and on the bundled model for a tiny subset (slow)."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest
from gent_bfcl import load_tasks
from gent_bfcl.__main__ import main
from gent_bfcl.agentrun import (
    AgentConfiguration,
    copied,
    example_values,
    run_agent,
    task_overrides,
    task_text,
)
from gent_bfcl.data import BFCLTask
from gent_bfcl.runner import TaskResult, summarize
from gent_bfcl.verdict import FailureKind

from gent_core import (
    Agent,
    Registry,
    apply_overrides,
    build_components,
    build_plugin_manager,
    parse_config,
)

DATA = Path(__file__).with_name("data")


def call(tool: str, **args: object) -> str:
    body = json.dumps({"tool": tool, "args": args})
    return f"<thinking>I call {tool}.</thinking>\n<action>\n{body}\n</action>"


def scripted(outputs: list[str], extra: str = "") -> str:
    return f"model: {{name: scripted, outputs: {json.dumps(outputs)}}}\n{extra}"


def run(outputs: list[str], categories: list[str], extra: str = "") -> list[TaskResult]:
    loaded = parse_config(scripted(outputs, extra))
    registry = Registry.from_plugin_manager(build_plugin_manager())
    model = build_components(loaded, registry).model
    tasks = load_tasks(categories, DATA, limit=1)
    return asyncio.run(run_agent(AgentConfiguration("scripted", loaded), model, tasks))


def test_each_task_declares_its_functions_and_stops_after_the_first_step() -> None:
    (task,) = load_tasks(["multiple"], DATA, limit=1)
    overrides = task_overrides(task)
    assert overrides["max_steps"] == 1
    declared = [entry["declare"] for entry in overrides["tools"]]
    assert [d["name"] for d in declared] == ["math.factorial", "geometry.area_circle"]
    assert all(d["stop"] for d in declared)
    assert declared[1]["parameters"]["properties"]["radius"] == {
        "type": "number",
        "description": "The radius.",
    }


def test_first_steps_are_judged_like_bfcl_judges_a_first_answer() -> None:
    results = run(
        [
            call("math.factorial", number=5),  # simple: valid, the dotted name as BFCL's
            "<thinking>Hmm.</thinking>",  # multiple: no usable section
            '<action>[{"tool": "math.factorial", "args": {"number": 3}}, '
            '{"tool": "math.factorial", "args": {"number": 4}}]</action>',  # parallel: one short
            "<thinking>No tool fits.</thinking><answer>Shakespeare.</answer>",  # irrelevance
        ],
        ["simple_python", "multiple", "parallel", "irrelevance"],
    )
    assert [(r.task_id, r.verdict.kind) for r in results] == [
        ("simple_python_0", None),
        ("multiple_0", FailureKind.UNPARSABLE),
        ("parallel_0", FailureKind.WRONG_COUNT),
        ("irrelevance_0", None),
    ]
    assert results[0].calls == [{"math.factorial": {"number": 5}}]
    assert results[3].calls == []
    assert not results[3].verdict.undecoded_no_call  # it answered: no call earned
    assert results[0].config == "scripted" and results[0].output.endswith("</action>")
    assert results[0].output_tokens and results[0].input_tokens
    summary = summarize(results)
    assert summary["simple_python"]["accuracy"] == 1.0
    assert summary["multiple"]["unparsable_share"] == 1.0
    assert summary["parallel"]["failures"] == {"wrong_count": 1}
    assert summary["irrelevance"]["undecoded_no_call"] == 0
    low, high = summary["parallel"]["ci95"]
    assert low == 0.0 and 0.5 < high < 1.0


def test_an_unusable_irrelevance_output_is_valid_as_bfcl_counts_it_and_reported_apart() -> None:
    (result,) = run(["<thinking>I call ... and then"], ["irrelevance"])
    assert result.verdict.valid and result.verdict.undecoded_no_call
    assert result.calls is None
    assert summarize([result])["irrelevance"]["undecoded_no_call"] == 1


def test_a_call_repaired_within_the_step_is_judged_repaired() -> None:
    (result,) = run(
        [call("math.factorial", number="five"), call("math.factorial", number=5)],
        ["simple_python"],
    )
    assert result.verdict.valid, result.verdict.message
    assert (result.repairs, result.repaired) == (1, 1)
    assert result.calls == [{"math.factorial": {"number": 5}}]
    summary = summarize([result])["simple_python"]
    assert summary["repair_rate"] == 1.0


def test_copies_of_example_values_are_counted() -> None:
    """A value the prompt's example calls show (``Lyon``) that the task does not hold is a
    copy; a value written in the task is not, even when an example shows it too."""
    examples = {json.dumps("Lyon"), json.dumps(5)}
    assert copied({"city": "Lyon"}, examples, "What is 5 factorial?")
    assert copied({"a": [{"b": "Lyon"}]}, examples, "x")
    assert not copied({"number": 5}, examples, "What is 5 factorial?")
    assert not copied({"city": "Lyon"}, examples, "The population of Lyon?")
    (result,) = run(
        ['<action>{"tool": "math.factorial", "args": {"number": 9}}</action>'], ["simple_python"]
    )
    assert result.copied_calls == 0
    # what counts as shown: the made-up calls of the guidance and the few-shot examples
    (task,) = load_tasks(["simple_python"], DATA, limit=1)
    loaded = apply_overrides(parse_config(scripted([])), task_overrides(task))
    shown = example_values(Agent.from_config(loaded), task_text(task))
    assert {json.dumps("Lyon"), json.dumps("Porto"), json.dumps("Kilimanjaro")} <= shown


def test_values_made_from_a_schema_are_not_counted_as_shown() -> None:
    """The prompt shows no value made from a task's schema (``"example table"``, an enum's
    first value): a call holding one did not copy it, so it is not counted as a copy (it was,
    when the counter read ``ToolChain.example_calls``, the values ``gent tools show`` makes)."""
    function = {
        "name": "database.query",
        "description": "Query a database.",
        "parameters": {
            "type": "dict",
            "properties": {
                "table": {"type": "string", "description": "The table."},
                "operation": {"type": "string", "enum": ["<", ">"], "description": "How."},
            },
            "required": ["table", "operation"],
        },
    }
    task = BFCLTask(
        "simple_python_y",
        "simple_python",
        [[{"role": "user", "content": "Users under 25."}]],
        [function],
        [{"database.query": {"table": ["user"], "operation": ["<"]}}],
    )
    loaded = apply_overrides(parse_config(scripted([])), task_overrides(task))
    agent = Agent.from_config(loaded)
    assert agent.toolchain is not None
    made = {value for call in agent.toolchain.example_calls() for value in call.args.values()}
    assert {"example table", "<"} <= made  # what the schema gives ``gent tools show``
    shown = example_values(agent, task_text(task))
    assert json.dumps("example table") not in shown and json.dumps("<") not in shown
    assert not copied({"table": "example table", "operation": "<"}, shown, task_text(task))
    assert json.dumps("Lyon") in shown


def test_a_task_that_cannot_be_configured_is_a_result() -> None:
    task = BFCLTask(
        "simple_python_x",
        "simple_python",
        [[{"role": "user", "content": "q"}]],
        [{"name": "bad name", "parameters": {"type": "dict", "properties": {}}}],
        [{"bad name": {}}],
    )
    loaded = parse_config(scripted([]))
    model = build_components(loaded, Registry.from_plugin_manager(build_plugin_manager())).model
    (result,) = asyncio.run(run_agent(AgentConfiguration("c", loaded), model, [task]))
    assert result.verdict.kind is FailureKind.MODEL_ERROR
    assert "'bad name' makes no gent tool name" in result.verdict.message


def test_command_line_runs_configs_and_the_baseline(tmp_path: Path) -> None:
    config = tmp_path / "agent.yaml"
    outputs = ["[math.factorial(number=5)]", call("math.factorial", number=5)]
    config.write_text(scripted(outputs))
    records = tmp_path / "results.jsonl"
    out = io.StringIO()
    code = main(
        [
            "gent",
            str(config),
            "--categories",
            "simple_python",
            "--data",
            str(DATA),
            "--limit",
            "1",
            "--baseline",
            "--jsonl",
            str(records),
        ],
        out,
    )
    assert code == 0, out.getvalue()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("bfcl-prompt\tsimple_python_0\tvalid")
    assert lines[1].startswith("agent\tsimple_python_0\tvalid")
    written = [json.loads(line) for line in records.read_text().splitlines()]
    assert [(r["config"], r["valid"]) for r in written] == [("bfcl-prompt", True), ("agent", True)]
    summary = json.loads(out.getvalue()[out.getvalue().index("\n{\n") :])
    assert set(summary) == {"bfcl-prompt / simple_python", "agent / simple_python"}


def test_tasks_can_be_chosen_off_the_report_subsets() -> None:
    """``--offset`` picks a disjoint subset to tune on."""
    every = [task.id for task in load_tasks(["simple_python"], DATA, every=2)]
    off = [task.id for task in load_tasks(["simple_python"], DATA, every=2, offset=1)]
    assert every and off and not set(every) & set(off)


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.llama
def test_the_bundled_model_runs_gents_agent_on_a_tiny_subset(tmp_path: Path) -> None:
    pytest.importorskip("gent_llamacpp")
    config = tmp_path / "agent.yaml"
    config.write_text("model: {name: llamacpp, seed: 1}\n")
    records = tmp_path / "results.jsonl"
    out = io.StringIO()
    arguments = ["gent", str(config), "--categories", "simple_python,irrelevance"]
    arguments += ["--data", str(DATA), "--limit", "1", "--max-tokens", "120"]
    assert main([*arguments, "--jsonl", str(records)], out) == 0, out.getvalue()
    results = [json.loads(line) for line in records.read_text().splitlines()]
    assert [r["id"] for r in results] == ["simple_python_0", "irrelevance_0"]
    for result in results:
        assert result["kind"] != "model_error", result["message"]
        assert result["output"] and result["output_tokens"] and result["seconds"] > 0

"""gent against peer agent frameworks on the same suite, model, server and checks, in one run.

Every framework drives the bundled Gemma 3 270M through one local ``llama_cpp.server``, on the
tasks of ``evals/basic-tools.yaml``, with gent's real ``calculator`` and ``current_time`` tools,
at most 6 model steps per task and temperature 0.2, one task at a time. A task counts as
solved when the agent answered within its steps and every check of the suite passes (the
suite's own check code judges every framework).

* gent: ``xml`` x ``json`` over the server's completions API (few-shot prompt), with and
  without its GBNF grammar;
* LangChain: the classic text ReAct agent (``create_react_agent`` with the standard hub ReAct
  prompt, written here so no network is needed) over ``langchain_openai.OpenAI``, a
  completions LLM; tools as single-input LangChain tools;
* smolagents: ``CodeAgent`` (the agent that drives a text-only model: it writes Python that
  calls the tools) over ``OpenAIServerModel`` (chat completions). A run that ends in
  smolagents' max-steps fallback answer counts as not answered, like gent's max_steps.

    python benchmarks/bench_eval_peers.py [--tasks N] [--stride K] [--json results.json]

The default, every 4th task (12 tasks, arithmetic and clock), keeps a run under an hour on a
2-core machine: smolagents' CodeAgent prompt is about 3,000 tokens per step.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import platform
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

from eval_common import (
    MODEL_NAME,
    TEMPERATURE,
    PeerRun,
    ToolRecorder,
    gent_config,
    judge,
    llama_server,
    load_tasks,
    versions,
)
from recorder import load_average

MAX_STEPS = 6
MAX_TOKENS = 128
"""Tokens per model call for every framework (a step needs well under 100)."""

REACT_PROMPT = """Answer the following questions as best you can. You have access to the \
following tools:

{tools}

Use the following format:

Question: the input question you must answer
Thought: you should always think about what to do
Action: the action to take, should be one of [{tool_names}]
Action Input: the input to the action
Observation: the result of the action
... (this Thought/Action/Action Input/Observation can repeat N times)
Thought: I now know the final answer
Final Answer: the final answer to the original input question

Begin!

Question: {input}
Thought:{agent_scratchpad}"""
"""LangChain hub's ``hwchase17/react``, the standard prompt of ``create_react_agent``."""


def observation(ok: bool, output: Any) -> str:
    return (json.dumps(output) if not isinstance(output, str) else output) if ok else output


# ----------------------------------------------------------------- gent


def run_gent(url: str, suite: Any, tasks: Any, grammar: bool) -> list[PeerRun]:
    from gent_eval import EvalRunner, Suite, build_configurations

    from gent_core._config import parse_config

    # not streamed, like the LangChain agent: llama_cpp.server reports token usage only then
    text = gent_config(url, grammar=grammar).replace(
        "  api: completions\n",
        f"  api: completions\n  max_tokens: {MAX_TOKENS}\n  stream: false\n",
    )
    configs = build_configurations([("server", parse_config(text))])
    result = asyncio.run(EvalRunner(Suite(suite.name, suite.path, tuple(tasks)), configs).run())
    runs = []
    for record in result.records:
        runs.append(
            PeerRun(
                task=record.task,
                answer=record.answer if record.stop_reason == "answer" else None,
                steps=record.steps,
                input_tokens=record.input_tokens,
                output_tokens=record.output_tokens,
                seconds=record.seconds,
                stop=record.stop_reason or "error",
                error=record.error if record.status == "error" else None,
                passed=record.passed,
                failure=record.failure(),
            )
        )
    return runs


# ----------------------------------------------------------------- LangChain


def langchain_runner(url: str) -> Callable[[Any], PeerRun]:
    from langchain_classic.agents import AgentExecutor, create_react_agent
    from langchain_classic.agents.agent import RunnableAgent
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.prompts import PromptTemplate
    from langchain_core.tools import Tool
    from langchain_openai import OpenAI

    llm = OpenAI(
        model=MODEL_NAME,
        base_url=url,
        api_key="none",
        temperature=TEMPERATURE,
        max_tokens=MAX_TOKENS,
    )
    prompt = PromptTemplate.from_template(REACT_PROMPT)

    class Usage(BaseCallbackHandler):
        def __init__(self) -> None:
            self.calls = self.input = self.output = 0

        def on_llm_end(self, response: Any, **kwargs: Any) -> None:
            usage = (response.llm_output or {}).get("token_usage", {})
            self.calls += 1
            self.input += usage.get("prompt_tokens", 0)
            self.output += usage.get("completion_tokens", 0)

    def run(task: Any) -> PeerRun:
        recorder = ToolRecorder()

        def calculator(text: str) -> str:
            return observation(*recorder.call("calculator", {"expression": text.strip()}))

        def current_time(text: str) -> str:
            zone = text.strip().strip("\"'")
            return observation(*recorder.call("current_time", {"timezone": zone} if zone else {}))

        tools = [
            Tool(
                name="calculator",
                func=calculator,
                description=recorder.tools["calculator"].description
                + " Input: an arithmetic expression, e.g. (2 + 3) * sqrt(16) / 7.",
            ),
            Tool(
                name="current_time",
                func=current_time,
                description=recorder.tools["current_time"].description
                + " Input: an IANA time zone such as Europe/Paris (empty: local time).",
            ),
        ]
        agent = RunnableAgent(  # not streamed, so the LLM reports its token usage
            runnable=create_react_agent(llm, tools, prompt), stream_runnable=False
        )
        executor = AgentExecutor(
            agent=agent,
            tools=tools,
            max_iterations=MAX_STEPS,
            handle_parsing_errors=True,
            return_intermediate_steps=True,
        )
        usage = Usage()
        started = time.perf_counter()
        error = None
        answer = None
        stop = "answer"
        try:
            output = executor.invoke({"input": task.text}, config={"callbacks": [usage]})
            text = str(output.get("output", ""))
            if text.startswith("Agent stopped due to iteration limit"):
                stop = "max_steps"
            else:
                answer = text
        except Exception as exc:  # noqa: BLE001 - a crashed run counts as not solved
            error = f"{type(exc).__name__}: {exc}"
            stop = "error"
        return PeerRun(
            task=task.id,
            answer=answer,
            calls=recorder.calls,
            steps=usage.calls,
            input_tokens=usage.input,
            output_tokens=usage.output,
            seconds=time.perf_counter() - started,
            stop=stop,
            error=error,
        )

    return run


# ----------------------------------------------------------------- smolagents


def smolagents_runner(url: str) -> Callable[[Any], PeerRun]:
    from smolagents import CodeAgent, OpenAIServerModel, Tool

    model = OpenAIServerModel(
        model_id=MODEL_NAME,
        api_base=url,
        api_key="none",
        flatten_messages_as_text=True,  # llama_cpp.server takes text content only
        temperature=TEMPERATURE,
        max_tokens=MAX_TOKENS,
    )

    def run(task: Any) -> PeerRun:
        recorder = ToolRecorder()

        def call(tool: str, args: dict[str, Any]) -> Any:
            ok, output = recorder.call(tool, args)
            if not ok:
                raise ValueError(output)
            return output

        class Calculator(Tool):
            name = "calculator"
            description = recorder.tools["calculator"].description
            inputs = {  # noqa: RUF012 - smolagents reads it from the class
                "expression": {
                    "type": "string",
                    "description": "an arithmetic expression, e.g. (2 + 3) * sqrt(16) / 7",
                }
            }
            output_type = "number"

            def forward(self, expression: str) -> Any:
                return call("calculator", {"expression": expression})

        class CurrentTime(Tool):
            name = "current_time"
            description = recorder.tools["current_time"].description
            inputs = {  # noqa: RUF012 - smolagents reads it from the class
                "timezone": {
                    "type": "string",
                    "description": "an IANA time zone such as Europe/Paris; the computer's "
                    "local time zone when omitted",
                    "nullable": True,
                }
            }
            output_type = "object"

            def forward(self, timezone: str | None = None) -> Any:
                return call("current_time", {"timezone": timezone} if timezone else {})

        agent = CodeAgent(
            tools=[Calculator(), CurrentTime()],
            model=model,
            max_steps=MAX_STEPS,
            verbosity_level=0,
        )
        started = time.perf_counter()
        error = None
        answer = None
        stop = "answer"
        tokens = (0, 0)
        steps = 0
        try:
            result = agent.run(task.text, return_full_result=True)
            if result.token_usage is not None:
                tokens = (result.token_usage.input_tokens, result.token_usage.output_tokens)
            steps = sum(
                1 for step in result.steps if "model_output" in step or "step_number" in step
            )
            if result.state == "max_steps_error":
                stop = "max_steps"
            else:
                answer = str(result.output)
        except Exception as exc:  # noqa: BLE001 - a crashed run counts as not solved
            error = f"{type(exc).__name__}: {exc}"
            stop = "error"
        return PeerRun(
            task=task.id,
            answer=answer,
            calls=recorder.calls,
            steps=steps,
            input_tokens=tokens[0],
            output_tokens=tokens[1],
            seconds=time.perf_counter() - started,
            stop=stop,
            error=error,
        )

    return run


# ----------------------------------------------------------------- report


def summarise(name: str, runs: list[PeerRun], seconds: float) -> dict[str, Any]:
    from gent_eval.stats import wilson_interval

    passed = sum(run.passed for run in runs)
    low, high = wilson_interval(passed, len(runs))
    solved = [run.seconds for run in runs if run.passed]
    return {
        "framework": name,
        "runs": len(runs),
        "passed": passed,
        "rate": passed / len(runs) if runs else 0.0,
        "ci95": [low, high],
        "answered": sum(run.stop == "answer" for run in runs),
        "crashed": sum(run.error is not None for run in runs),
        "mean_steps": statistics.fmean(run.steps for run in runs) if runs else 0.0,
        "tokens_in_per_run": statistics.fmean(run.input_tokens for run in runs) if runs else 0,
        "tokens_out_per_run": statistics.fmean(run.output_tokens for run in runs) if runs else 0,
        "median_solved_seconds": statistics.median(solved) if solved else None,
        "total_seconds": seconds,
        "failures": {run.task: run.failure for run in runs if not run.passed},
    }


def print_table(rows: list[dict[str, Any]]) -> None:
    gent = rows[0]
    header = (
        f"{'framework':<34} {'solved':>9} {'95% CI':>10} {'answered':>8} {'steps':>5} "
        f"{'tok in/run':>10} {'tok out/run':>11} {'s/solved':>8} {'total s':>8} {'gent/peer':>9}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        ratio = gent["rate"] / row["rate"] if row["rate"] else float("inf")
        solved = f"{row['passed']}/{row['runs']}"
        ci = f"{row['ci95'][0] * 100:.0f}-{row['ci95'][1] * 100:.0f}%"
        median = row["median_solved_seconds"]
        print(
            f"{row['framework']:<34} {solved:>9} {ci:>10} {row['answered']:>8} "
            f"{row['mean_steps']:>5.2f} {row['tokens_in_per_run']:>10.0f} "
            f"{row['tokens_out_per_run']:>11.0f} {'-' if median is None else f'{median:.2f}':>8} "
            f"{row['total_seconds']:>8.0f} {'-' if row is gent else f'{ratio:.2f}x':>9}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=None, help="first N tasks (default: all)")
    parser.add_argument(
        "--stride", type=int, default=4, help="every K-th task (default 4: 12 tasks of both kinds)"
    )
    parser.add_argument("--json", help="also write the figures and failures to this file")
    parser.add_argument(
        "--gent",
        default="grammar,plain",
        help="gent variants: grammar (with its GBNF grammar), plain (without); default both",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="server threads (default: one per core; 1 is faster on a busy 2-core machine)",
    )
    args = parser.parse_args()
    began = dt.datetime.now(dt.timezone.utc)
    load_at_start = load_average()
    warnings.filterwarnings("ignore")
    suite, tasks = load_tasks(args.tasks)
    tasks = tasks[:: args.stride]
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores; {versions()}")
    print(
        f"{len(tasks)} tasks of {suite.path.name}; model {MODEL_NAME} on one llama_cpp.server; "
        f"max {MAX_STEPS} steps, temperature {TEMPERATURE}, one task at a time\n"
    )
    rows = []
    with llama_server(threads=args.threads) as url:
        variants = {"grammar": True, "plain": False}
        for name in args.gent.split(","):
            grammar = variants[name]
            label = f"gent xml x json ({'grammar' if grammar else 'no grammar'})"
            started = time.perf_counter()
            runs = run_gent(url, suite, tasks, grammar)
            rows.append(summarise(label, runs, time.perf_counter() - started))
            print(f"  {label}: {rows[-1]['passed']}/{rows[-1]['runs']}", flush=True)
        peers = (
            ("LangChain create_react_agent", langchain_runner),
            ("smolagents CodeAgent", smolagents_runner),
        )
        for label, make in peers:
            run_task = make(url)
            started = time.perf_counter()
            runs = [judge(task, run_task(task)) for task in tasks]
            rows.append(summarise(label, runs, time.perf_counter() - started))
            print(f"  {label}: {rows[-1]['passed']}/{rows[-1]['runs']}", flush=True)
    print()
    print_table(rows)
    count = len(args.gent.split(","))
    best_peer = max(rows[count:], key=lambda row: row["rate"])
    best_gent = max(rows[:count], key=lambda row: row["rate"])
    ratio = best_gent["rate"] / best_peer["rate"] if best_peer["rate"] else float("inf")
    print(
        f"\nbest gent ({best_gent['framework']}) / best peer ({best_peer['framework']}): "
        f"{ratio:.2f}x (target from issue 12: >= 2x)"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump({"tasks": len(tasks), "rows": rows}, file, indent=2)
    record_results(rows[:count], rows[count:], len(tasks), began, load_at_start)


def record_results(
    gents: list[dict[str, Any]],
    peers: list[dict[str, Any]],
    tasks: int,
    began: dt.datetime,
    load_at_start: float | None,
) -> None:
    """Save the figures for the benchmark report (benchmarks/recorder.py)."""
    from recorder import Recorder

    record = Recorder(
        "bench_eval_peers",
        "Agents on a real model: gent against LangChain and smolagents",
        f"{tasks} tasks of evals/basic-tools.yaml with the bundled Gemma 3 270M on one local "
        f"llama_cpp.server, at most {MAX_STEPS} steps, temperature {TEMPERATURE}, the suite's "
        "own checks judging every framework: gent (xml x json over the completions API), "
        "LangChain's text ReAct agent, smolagents' CodeAgent.",
    )
    record.started, record.load_at_start = began, load_at_start  # the run, not this call
    for gent in gents:
        for peer in peers:
            record.measure(
                f"tasks solved, {gent['framework']}",
                100 * gent["rate"],
                "%",
                versus=f"{peer['framework']} ({peer['passed']}/{peer['runs']})",
                other=100 * peer["rate"],
                lower_is_better=False,
                note=f"{gent['passed']}/{gent['runs']}",
                headline=gent is gents[0] and peer is peers[0],
            )
            record.measure(
                f"wall time of the whole suite, {gent['framework']}",
                gent["total_seconds"],
                "s",
                versus=peer["framework"],
                other=peer["total_seconds"],
            )
    record.save()


if __name__ == "__main__":
    main()

"""Do a small model's answers copy the few-shot examples' values? Tasks with three tools.

The bundled Gemma 3 270M gets the tools of the README's example and one more basic tool:
``calculator`` and ``current_time`` (gent-tools-basic, which declare worked examples) and a
``word_count`` tool written in code (no examples, as a user's own tool has). Each task asks
something one of them answers; nobody tuned the prompts for these questions.

For every run the script counts:

* **solved**: the run answered, the right tool was called and succeeded, and the answer holds
  the expected value (for the clock, the time or the date the tool returned);
* **copied**: the answer holds a value of a worked example that is neither in the task nor
  in any result a tool returned during the run, a value the model can only have taken from
  an example: a number of two digits or more of a declared example of one of the agent's
  tools or of gent's made-up examples (task, arguments, result or answer), or a name from
  their text arguments (``Madrid``, ``Kilimanjaro``) that the task does not name;
* **copied into calls**: a call passes an example's text argument (``Europe/Madrid``) that
  the task does not name;
* **failed call**: some call of the run failed (the case where issue 26 saw copying).

Run: ``python benchmarks/bench_copying.py [--repeat K] [--task ID...] [-o KEY=VALUE...]``
(``-o`` sets an option of the ``llamacpp`` model, e.g. ``-o n_threads=1`` on a busy machine,
as the tutorial says). Prints one line per run and the totals; ``--json FILE`` writes them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gent_core import Agent, Limits, RunResult, tool  # noqa: E402


@tool
def word_count(text: str) -> int:
    """Count the words of a text."""
    return len(text.split())


@dataclass(frozen=True)
class Task:
    """A question, the tool that answers it and what the answer must hold (``None``: the
    time or the date the clock returned)."""

    id: str
    text: str
    tool: str
    expected: str | None


TASKS = (
    Task(
        "words-fox",
        "How many words are in 'the quick brown fox jumps over the lazy dog'?",
        "word_count",
        "9",
    ),
    Task("times-48-15", "What is 48 times 15?", "calculator", "720"),
    Task(
        "words-rain",
        "Count the words in this sentence: 'rain falls on the green hills'.",
        "word_count",
        "6",
    ),
    Task("minus-1000-387", "What is 1000 minus 387?", "calculator", "613"),
    Task("time-paris", "What time is it in Paris?", "current_time", None),
    Task(
        "words-proverb",
        "How many words does the proverb 'better late than never' have?",
        "word_count",
        "4",
    ),
    Task("divide-91-7", "What is 91 divided by 7?", "calculator", "13"),
    Task("date-sydney", "What is the date today in Sydney?", "current_time", None),
    Task(
        "words-eight",
        "How many words are in 'one two three four five six seven eight'?",
        "word_count",
        "8",
    ),
    Task("squared-plus", "What is 6 squared plus 10?", "calculator", "46"),
    Task("time-cairo", "What time is it in Cairo right now?", "current_time", None),
    Task("times-3.5-4", "What is 3.5 times 4?", "calculator", "14"),
)

_NUMBER = re.compile(r"\d+(?::\d\d)?(?:[.-]\d+)*")


def _scalars(value: Any) -> Iterable[str]:
    """The leaf values of a tool result, as text."""
    if isinstance(value, Mapping):
        for item in value.values():
            yield from _scalars(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _scalars(item)
    elif value is not None:
        yield str(value)


def _tokens(text: str) -> set[str]:
    """The numbers (times, dates and decimals whole) of a text; ``19.0`` also as ``19``."""
    found = set()
    for token in _NUMBER.findall(text):
        found.add(token)
        if token.endswith(".0"):
            found.add(token[:-2])
    return found


def example_values(agent: Agent) -> tuple[set[str], set[str]]:
    """What the worked examples the agent's prompt may show hold: their numbers (in the task,
    the arguments, the result and the answer), and the words of their text arguments and
    results (``Madrid``, ``Europe/Madrid``, ``Kilimanjaro``)."""
    from gent_prompt import base_prompt as _base_prompt

    chain = agent.structure().toolchain
    texts: list[str] = []
    named: list[str] = []
    for each in chain.tools if chain is not None else ():
        for example in each.examples:
            texts += [example.task, example.answer or ""]
            texts += [*_scalars(example.arguments), *_scalars(example.result)]
            named += [*_scalars(example.arguments)]
    made_up = [*_base_prompt.NEUTRAL_EXAMPLES, *_made_up_recovery(_base_prompt)]
    for neutral in made_up:
        calls = [
            *neutral.calls,
            *(neutral.failed.calls if getattr(neutral, "failed", None) else ()),
        ]
        texts += [neutral.task, neutral.answer, *neutral.results]
        texts += [scalar for call in calls for scalar in _scalars(call.args)]
        named += [scalar for call in calls for scalar in _scalars(call.args)]
    numbers = {
        token
        for text in texts
        for token in _tokens(text)
        if len(re.sub(r"\D", "", token).lstrip("0")) > 1
    }
    return numbers, {word for text in named for word in _words(text)}


def _made_up_recovery(module: Any) -> list[Any]:
    """The recovery example, where gent has one (not before issue 26's change)."""
    example = getattr(module, "RECOVERY_EXAMPLE", None)
    return [example] if example is not None else []


def _words(text: str) -> set[str]:
    """The words of a text argument: ``Europe/Madrid`` gives ``Europe/Madrid``, ``Madrid``."""
    found = {text} if re.fullmatch(r"[A-Za-z][\w/ -]*", text) else set()
    return found | set(re.findall(r"[A-Z][a-z]{2,}", text.rsplit("/", 1)[-1]))


@dataclass
class Outcome:
    """What one run gave."""

    task: str
    repeat: int
    solved: bool
    copied: list[str]
    copied_into_calls: list[str]
    failed_call: bool
    stop_reason: str
    answer: str
    calls: list[str]
    outputs: list[Any]
    seconds: float


def judge(
    task: Task,
    result: RunResult,
    examples: tuple[set[str], set[str]],
    seconds: float,
    repeat: int,
) -> Outcome:
    """Judge one run (see the module documentation)."""
    numbers, named = examples
    answer = result.answer if isinstance(result.answer, str) and result.ok else ""
    calls = [call for step in result.steps for call in step.calls]
    good = [call for call in calls if call.status == "success" and call.tool == task.tool]
    seen = _tokens(task.text)
    for call in calls:
        if call.status == "success":
            for scalar in _scalars(call.output):
                seen |= _tokens(scalar)
    said = _tokens(answer)
    asked = _words(task.text) | set(re.findall(r"[A-Z][a-z]{2,}", task.text))
    copied = sorted((said & numbers) - seen) + sorted(
        word for word in named - asked if word in answer
    )
    into_calls = sorted(
        {
            scalar
            for call in calls
            for scalar in _scalars(call.args)
            if scalar in named and not any(word in task.text for word in _words(scalar))
        }
    )
    if task.expected is not None:
        right = task.expected in said or f"{task.expected}.0" in said
    else:
        shown = {
            scalar
            for call in good
            if isinstance(call.output, dict)
            for key, scalar in call.output.items()
            if key in {"time", "date"}
        }
        right = any(value in answer for value in shown)
    return Outcome(
        task.id,
        repeat,
        bool(result.ok and good and right),
        copied,
        into_calls,
        any(call.status != "success" for call in calls),
        result.stop_reason,
        answer,
        [f"{call.tool}({json.dumps(call.args)}) {call.status}" for call in calls],
        [call.output if call.status == "success" else call.error for call in calls],
        round(seconds, 1),
    )


def _option(text: str) -> tuple[str, Any]:
    key, _, value = text.partition("=")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


async def run_all(tasks: Sequence[Task], repeat: int, options: dict[str, Any]) -> list[Outcome]:
    """Run every task ``repeat`` times on one agent (the model loads once)."""
    agent = Agent(
        ("llamacpp", options),
        format="xml",
        toolchain="json",
        tools=["calculator", "current_time", word_count],
        limits=Limits(max_steps=4),
    )
    examples = example_values(agent)
    outcomes = []
    for round_ in range(1, repeat + 1):
        for task in tasks:
            start = time.monotonic()
            result = await agent.run(task.text)
            outcome = judge(task, result, examples, time.monotonic() - start, round_)
            outcomes.append(outcome)
            mark = "solved" if outcome.solved else "failed"
            print(
                f"{task.id:15} r{round_} {mark:6} copied={','.join(outcome.copied) or '-':10} "
                f"into-calls={','.join(outcome.copied_into_calls) or '-':10} "
                f"{outcome.stop_reason:16} {outcome.seconds:6.1f}s {outcome.calls} "
                f"{outcome.answer!r}",
                flush=True,
            )
    return outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--task", nargs="*", help="only these task ids")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--json", type=Path, help="write every run to this file")
    args = parser.parse_args()
    tasks = [task for task in TASKS if not args.task or task.id in args.task]
    options = dict(_option(text) for text in args.option)
    outcomes = asyncio.run(run_all(tasks, args.repeat, options))
    runs = len(outcomes)
    solved = sum(outcome.solved for outcome in outcomes)
    copied = sum(bool(outcome.copied) for outcome in outcomes)
    into_calls = sum(bool(outcome.copied_into_calls) for outcome in outcomes)
    failing = [outcome for outcome in outcomes if outcome.failed_call]
    print(
        f"\n{runs} runs: solved {solved}/{runs}; answers with an example's value {copied}/{runs}; "
        f"calls with an example's value the task does not hold {into_calls}/{runs}; "
        f"runs with a failed call {len(failing)}/{runs}, of which copied "
        f"{sum(bool(outcome.copied) for outcome in failing)}"
    )
    if args.json:
        args.json.write_text(json.dumps([asdict(outcome) for outcome in outcomes], indent=1))


if __name__ == "__main__":
    main()

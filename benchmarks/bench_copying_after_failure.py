"""After a failed call, does a small model answer with an example's value? One step, replayed.

The conversation of issue 26: the README's agent (``calculator`` and a code ``word_count``) is
asked "How many words are in 'to be or not to be'?", and its first step called the calculator
with ``to be or not to be``, which failed. The bundled model writes the next step ``--runs``
times (default sampling); the script counts the outputs that hold a number of two digits or
more from the calculator's worked examples (their tasks, results and answers: ``12.5``,
``100.0``, ``343``, ``250``, ``62.5``, ``196``, ``19.0``...) and the outputs that call
``word_count``.

Run: ``python benchmarks/bench_copying_after_failure.py [--runs N] [-o KEY=VALUE...]``
(``-o n_threads=1`` on a busy machine). Compare gent versions by running it on each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_copying import _option, _tokens, word_count

from gent_core import Agent
from gent_core.messages import Message
from gent_core.model import ModelRequest

TASK = "How many words are in 'to be or not to be'?"
FIRST = (
    "<thinking>\nI will use the calculator tool.\n</thinking>\n<action>\n"
    '{"tool": "calculator", "args": {"expression": "to be or not to be"}}\n</action>'
)


async def main_async(runs: int, options: dict[str, Any]) -> None:
    """Write the step after the failed call ``runs`` times and count what it holds."""
    agent = Agent(
        ("llamacpp", options), format="xml", toolchain="json", tools=["calculator", word_count]
    )
    chain = agent.toolchain
    assert chain is not None
    calculator = next(each for each in chain.tools if each.name == "calculator")
    values = {
        token
        for example in calculator.examples
        for text in (example.task, str(example.result), example.answer or "")
        for token in _tokens(text)
        if len(re.sub(r"\D", "", token).lstrip("0")) > 1
    }
    error = (
        "<observation>\n<calculator>\nError: Cannot evaluate 'to be or not to be': invalid "
        "syntax (invalid syntax).\nAccepted: numbers, + - * / // % ** (power), unary + and -, "
        "parentheses, the functions sqrt, abs, round, floor, ceil, log, exp, sin, cos, tan, "
        "min, max and the constants pi and e.\n</calculator>\n</observation>"
    )
    messages = [
        Message.system(agent.system_prompt()),
        Message.user(TASK),
        Message.assistant(FIRST),
        Message.user(error),
    ]
    structure = agent.structure()
    request = ModelRequest(
        messages, stop=agent.format.stop_sequences(agent.closing_sections()), structure=structure
    )
    await agent.model.load()
    copied = counted = 0
    for index in range(runs):
        response = await agent.model.complete(request)
        text = response.text
        found = sorted(_tokens(text) & values)
        copied += bool(found)
        counted += '"word_count"' in text
        print(json.dumps({"run": index, "copied": found, "output": text}), flush=True)
    print(
        f"\n{runs} outputs after the failed call: an example's value in {copied}, "
        f"a word_count call in {counted}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    asyncio.run(main_async(args.runs, dict(_option(text) for text in args.option)))


if __name__ == "__main__":
    main()

"""The live views the docs show are what ``gent run`` prints.

A ``text`` block of the tutorial that starts with ``Task:`` is a run of ``gent run`` as the
page shows it. The test replays the model outputs the block shows (its ``[thinking]``,
``[action]`` and ``[answer]`` lines) with the scripted model, through the real command (the
built-in agent's format, tool chain and calculator, in this process: the output is what is
checked, not the process), and compares what the command prints
with the block, line for line. Only what depends on the machine and the model is left out of
the comparison: the model's name and loading time, the token counts and the run's seconds.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli.inprocess import gent_in_process
from tests.docs.doc_blocks import parse_page

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "docs" / "tutorial.md"]
GENT_RUN = ["run", "--no-color", "-m", "scripted"]

_SECTION = re.compile(r"^\[(?P<name>\w+)\] (?P<text>.*)$")
_STEP = re.compile(r"^--- step \d+ ---$")
_MACHINE = [
    (re.compile(r"^model .+ ready in [\d.]+ s$", re.MULTILINE), "model MODEL ready in S s"),
    (re.compile(r"tokens [\d,]+ in / [\d,]+ out \| [\d.]+ s$", re.MULTILINE), "tokens N | S s"),
]


def samples() -> list[tuple[str, int, str]]:
    """``(page, line, block)`` for every block that shows a run of ``gent run``."""
    found = []
    for page in PAGES:
        for block in parse_page(page.relative_to(ROOT), page.read_text(encoding="utf-8")).blocks:
            if block.language == "text" and block.code.startswith("Task: "):
                found.append((page.name, block.line, block.code))
    return found


def model_outputs(sample: str) -> list[str]:
    """The model's output of each step, rebuilt from the sections the sample shows."""
    outputs: list[list[str]] = []
    for line in sample.splitlines():
        if _STEP.match(line):
            outputs.append([])
        elif outputs and (section := _SECTION.match(line)):
            name, text = section["name"], section["text"]
            outputs[-1].append(f"<{name}>{text}</{name}>")
    return ["\n".join(sections) for sections in outputs]


def normalized(text: str) -> str:
    for pattern, replacement in _MACHINE:
        text = pattern.sub(replacement, text)
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def test_the_tutorial_shows_a_run() -> None:
    assert samples(), "docs/tutorial.md shows no run of gent run (a text block starting 'Task:')"


@pytest.mark.parametrize(("page", "line", "sample"), samples(), ids=lambda v: str(v)[:20])
def test_a_sample_run_is_what_gent_run_prints(
    page: str, line: int, sample: str, tmp_path: Path
) -> None:
    task = sample.splitlines()[0].removeprefix("Task: ")
    outputs = model_outputs(sample)
    done = gent_in_process(
        tmp_path, [*GENT_RUN, "-o", f"model.outputs={json.dumps(outputs)}", task]
    )
    assert done.returncode == 0, done.stderr.decode()
    assert normalized(done.stdout.decode()) == normalized(sample), (
        f"docs/{page}, line {line}: the sample is not what gent run prints"
    )

"""Shared helpers of gent-llamacpp's tests: real tools, structures built from the installed
format and chain plugins (through the registry, never by importing them), and llama.cpp's own
grammar parser run in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from gent_core import TextTermination, tool
from gent_core.model import OutputStructure
from gent_core.sections import Section, TextSection
from gent_core.termination import Termination
from gent_core.testing import PluginSandbox
from gent_core.tools.base import Tool


@tool
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression such as 17 * 23."""
    return expression


@tool
def search(query: str, limit: int = 3, language: Literal["en", "fr"] = "en") -> list[str]:
    """Search the web."""
    return [query] * limit


class Point(BaseModel):
    x: float
    y: float


@tool
def plot(points: list[Point], title: str | None = None) -> str:
    """Plot points."""
    return title or ""


TOOLS: list[Tool] = [calculator, search, plot]
FORMATS = ["xml", "markdown"]
CHAINS = ["json", "yaml"]


class Answer(BaseModel):
    value: int
    explanation: str


def make_structure(
    format_name: str,
    chain_name: str | None,
    termination: Termination | None = None,
    tools: Sequence[Tool] = TOOLS,
) -> OutputStructure:
    """The structure an agent with these plugins would have (thinking, action, answer)."""
    sandbox = PluginSandbox()
    sandbox.load_installed()
    registry = sandbox.registry()
    text_format = registry.create("format", format_name)
    chain = registry.create("toolchain", chain_name, tools=list(tools)) if chain_name else None
    term = termination if termination is not None else TextTermination()
    sections: list[Section] = [TextSection("thinking", "Think briefly.")]
    if chain is not None:
        sections.append(chain)
    sections.append(term)
    return OutputStructure(text_format, sections, chain, term)


_SCRIPT = r"""
import json, sys
import llama_cpp
results = []
for text in json.load(sys.stdin):
    sampler = llama_cpp.llama_sampler_init_grammar(None, text.encode("utf-8"), b"root")
    results.append(bool(sampler))
    if sampler:
        llama_cpp.llama_sampler_free(sampler)
print(json.dumps(results))
"""


def llama_accepts(grammars: Sequence[str]) -> list[bool]:
    """Whether llama.cpp's own grammar parser accepts each grammar (run in a subprocess, so
    a crash fails the test instead of killing the test run)."""
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        input=json.dumps(list(grammars)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, f"llama.cpp grammar check crashed:\n{result.stderr[-3000:]}"
    accepted: list[bool] = json.loads(result.stdout.strip().splitlines()[-1])
    return accepted

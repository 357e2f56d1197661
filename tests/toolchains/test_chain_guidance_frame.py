"""The guidance of the four text chains, written by the one shared frame
(:func:`gent_core.guidance.call_guidance`), is byte for byte what each chain wrote itself
before the frame existed: the reference below is the old code's output, line by line, with
the example calls taken live from the chain (their values belong to ``gent_core._guidance``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from gent_json import JSONToolChain
from gent_natural.chain import NaturalToolChain
from gent_pythonic import PythonicToolChain
from gent_pythonic.signature import describe_python_tools
from gent_yaml import YAMLToolChain

from gent_core.guidance import for_example, guidance_calls
from gent_core.toolchain import ToolChain
from gent_core.tools import Tool, ToolExample, tool


@tool
def search(query: str, limit: int = 5) -> str:
    """Search the web."""
    return query


@tool(examples=[ToolExample("Weather in Oslo?", {"city": "Oslo"}, "snow")])
def weather(city: str) -> str:
    """The weather in a city."""
    return city


@tool(name="files.write", examples=[ToolExample("Save it", {"path": "a.txt", "text": "x\ny"})])
def write(path: str, text: str) -> str:
    """Write a file."""
    return path


TOOL_SETS: dict[str, list[Tool]] = {
    "none": [],
    "schemas only": [search],
    "declared examples": [search, weather, write],
}

JSON_INTRO = 'Call tools by writing JSON: an object with "tool" (the tool\'s name) and "args" '
YAML_INTRO = 'Call tools by writing YAML: a mapping with "tool" (the tool\'s name) and "args" '
PYTHON_VALUES = (
    'Argument values are literals: "text" in quotes, numbers, True, False, None, lists [...] '
    "and dicts {...}. Nothing is evaluated: no variables, operators or nested calls. Leave "
    "out an argument shown with a default to use it."
)
SEVERAL = "To call several tools, or one tool several times, in one step, "
RESULTS = " here. Each result comes back in the observation, in a section named after the tool."

# chain, its opening words, how several calls are written, its notes, what the section holds,
# and how it lists its tools
CHAINS: dict[str, tuple[Callable[[list[Tool]], ToolChain], str, str, list[str], str, bool]] = {
    "json": (
        JSONToolChain,
        JSON_INTRO + "(its arguments), ",
        "write a list of calls",
        [],
        "JSON",
        False,
    ),
    "yaml": (
        YAMLToolChain,
        YAML_INTRO + "(its arguments), ",
        "write a list of calls",
        ['Write multi-line text as a block: "content: |" followed by the lines, indented.'],
        "YAML",
        False,
    ),
    "pythonic": (
        PythonicToolChain,
        "Call tools by writing Python function calls with keyword arguments, ",
        "write one call per line",
        [PYTHON_VALUES],
        "calls",
        True,
    ),
    "natural": (
        NaturalToolChain,
        "Call a tool by writing a <tool_call> tag naming it, with its arguments as a JSON "
        "object inside, ",
        "write one tag after the other",
        [],
        "tags",
        False,
    ),
}


@pytest.mark.parametrize("tool_set", sorted(TOOL_SETS))
@pytest.mark.parametrize("name", sorted(CHAINS))
def test_each_chains_guidance_is_unchanged_by_the_shared_frame(name: str, tool_set: str) -> None:
    make, intro, several, notes, written, python_tools = CHAINS[name]
    tools = TOOL_SETS[tool_set]
    chain = make(tools)
    calls = guidance_calls(chain)
    listed = describe_python_tools(tools) if python_tools else chain.describe_tools()
    expected = [
        intro + for_example(chain, calls),
        chain.format_calls(calls[:1]).rstrip("\n"),
        f"{SEVERAL}{several}:",
        chain.format_calls(calls).rstrip("\n"),
        *notes,
        f"Write only the {written}{RESULTS}",
        "Available tools:",
        listed or "(none)",
    ]
    assert chain.guidance == "\n".join(expected)

"""Observations written by the json and yaml chains in the xml and markdown formats.

The expected texts below are the examples of ``docs/toolchains.md``; the tests check both
that execution produces them and that the page still shows them.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from gent_json import JSONToolChain
from gent_markdown.format import MarkdownFormat
from gent_xml.format import XMLFormat
from gent_yaml import YAMLToolChain
from pydantic import BaseModel

from gent_core._execution import execute_action
from gent_core.context import ExecutionContext
from gent_core.errors import UnknownToolError
from gent_core.formats import TextFormat
from gent_core.toolchain import ToolChain
from gent_core.tools import tool

DOC = Path(__file__).resolve().parents[2] / "docs" / "toolchains.md"
DOC_BLOCK = re.compile(
    r"<!-- observation: (?P<chain>\w+) (?P<format>\w+) -->\n```\w*\n(?P<text>.*?)\n```", re.DOTALL
)


class Customer(BaseModel):
    id: str
    name: str
    notes: str


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


@tool
def get_customer(id: str) -> Customer:
    """Look up a customer by id."""
    return Customer(id=id, name="Ada Lovelace", notes="Prefers email.\nVIP since 2020.")


ACTIONS = {
    "json": (
        '[{"tool": "multiply", "args": {"a": 17, "b": 23}},\n'
        ' {"tool": "get_customer", "args": {"id": "C001"}},\n'
        ' {"tool": "weather", "args": {"city": "Paris"}}]'
    ),
    "yaml": (
        "- tool: multiply\n  args: {a: 17, b: 23}\n"
        "- tool: get_customer\n  args:\n    id: C001\n"
        "- tool: weather\n  args:\n    city: Paris\n"
    ),
}
CHAINS: dict[str, type[ToolChain]] = {"json": JSONToolChain, "yaml": YAMLToolChain}
FORMATS: dict[str, type[TextFormat]] = {"xml": XMLFormat, "markdown": MarkdownFormat}

UNKNOWN = "Error: Unknown tool 'weather'. Available tools: multiply, get_customer."
JSON_CUSTOMER = (
    '{"id": "C001", "name": "Ada Lovelace", "notes": "Prefers email.\\nVIP since 2020."}'
)
YAML_CUSTOMER = "id: C001\nname: Ada Lovelace\nnotes: |-\n  Prefers email.\n  VIP since 2020."

EXPECTED = {
    ("json", "xml"): (
        "<observation>\n<multiply>\n391\n</multiply>\n"
        f"<get_customer>\n{JSON_CUSTOMER}\n</get_customer>\n"
        f"<weather>\n{UNKNOWN}\n</weather>\n</observation>"
    ),
    ("json", "markdown"): (
        "# observation\n\n## multiply\n391\n\n"
        f"## get_customer\n{JSON_CUSTOMER}\n\n## weather\n{UNKNOWN}"
    ),
    ("yaml", "xml"): (
        "<observation>\n<multiply>\n391\n</multiply>\n"
        f"<get_customer>\n{YAML_CUSTOMER}\n</get_customer>\n"
        f"<weather>\n{UNKNOWN}\n</weather>\n</observation>"
    ),
    ("yaml", "markdown"): (
        "# observation\n\n## multiply\n391\n\n"
        f"## get_customer\n{YAML_CUSTOMER}\n\n## weather\n{UNKNOWN}"
    ),
}


@pytest.mark.parametrize(("chain_name", "format_name"), sorted(EXPECTED))
def test_observation_text(chain_name: str, format_name: str, tmp_path: Path) -> None:
    chain = CHAINS[chain_name]([multiply, get_customer])
    result = asyncio.run(
        execute_action(
            chain, ACTIONS[chain_name], FORMATS[format_name](), ExecutionContext(tmp_path)
        )
    )
    assert result.text == EXPECTED[chain_name, format_name]
    assert [r.output for r in result.results][:1] == [391]
    assert isinstance(result.results[1].output, Customer)
    assert isinstance(result.errors[2], UnknownToolError)
    assert result.errors[:2] == [None, None]


def test_the_documented_examples_match() -> None:
    documented = {
        (match["chain"], match["format"]): match["text"]
        for match in DOC_BLOCK.finditer(DOC.read_text())
    }
    assert documented == EXPECTED


def inner_format(format_name: str) -> TextFormat:
    """The format reading the tool sections nested in the observation (Markdown: ``##``)."""
    return MarkdownFormat(level=2) if format_name == "markdown" else XMLFormat()


@pytest.mark.parametrize("format_name", sorted(FORMATS))
@pytest.mark.parametrize("chain_name", sorted(CHAINS))
def test_the_observation_parses_back_into_its_sections(
    chain_name: str, format_name: str, tmp_path: Path
) -> None:
    text_format = FORMATS[format_name]()
    chain = CHAINS[chain_name]([multiply, get_customer])
    result = asyncio.run(
        execute_action(chain, ACTIONS[chain_name], text_format, ExecutionContext(tmp_path))
    )
    parsed = text_format.parse(result.text, ["observation"])
    assert [section.name for section in parsed] == ["observation"]
    inner = inner_format(format_name).parse(
        parsed.sections[0].content, ["multiply", "get_customer", "weather"]
    )
    assert inner.get("multiply") == ["391"]
    assert inner.get("weather") == [UNKNOWN]


@pytest.mark.parametrize("format_name", sorted(FORMATS))
def test_no_calls_give_no_observation(format_name: str) -> None:
    result = asyncio.run(
        execute_action(JSONToolChain([multiply]), "", FORMATS[format_name](), ExecutionContext())
    )
    assert result.text == ""


@pytest.mark.parametrize("format_name", sorted(FORMATS))
def test_a_made_up_tool_name_still_gives_a_valid_section(format_name: str) -> None:
    text_format = FORMATS[format_name]()
    result = asyncio.run(
        execute_action(
            JSONToolChain([multiply]),
            '{"tool": "search the web!", "args": {}}',
            text_format,
            ExecutionContext(),
        )
    )
    parsed = text_format.parse(result.text, ["observation"])
    inner = inner_format(format_name).parse(parsed.sections[0].content, ["search_the_web_"])
    assert inner.get("search_the_web_")[0].startswith("Error: Unknown tool 'search the web!'")

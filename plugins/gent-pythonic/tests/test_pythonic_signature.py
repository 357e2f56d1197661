"""Tools shown as Python signatures in the guidance, in the order positional arguments and
the grammar follow."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pytest
from gent_pythonic import PythonicToolChain
from gent_pythonic.signature import parameter_order, python_signature, python_type
from pydantic import BaseModel

from gent_core.testing import KIT_TOOLS
from gent_core.tools import BaseTool, ToolExample, tool
from gent_core.tools.base import Tool


class Point(BaseModel):
    """A point."""

    x: float
    label: str | None = None


@tool
def shapes(
    points: list[Point],
    kind: Literal["line", "dots"] = "dots",
    tags: dict[str, int] | None = None,
    closed: bool = False,
) -> str:
    """Draw shapes."""
    return kind


class Described(BaseTool):
    """Arguments with descriptions, one optional without a default, one required after it."""

    name = "lookup"
    description = "Look a word up.\n\nA second paragraph that the guidance leaves out."
    parameters = {  # noqa: RUF012
        "type": "object",
        "properties": {
            "limit": {"type": "integer", "description": "how many\n  results"},
            "word": {"type": "string", "description": "the word"},
            "file-name": {"type": "string"},
        },
        "required": ["word"],
    }

    async def run(self, working_directory: Path, **arguments: Any) -> str:
        return str(arguments)


class Anything(BaseTool):
    """Any named arguments."""

    name = "anything"
    description = ""
    parameters = {"type": "object", "additionalProperties": {"type": "string"}}  # noqa: RUF012

    async def run(self, working_directory: Path, **arguments: Any) -> str:
        return str(arguments)


@pytest.mark.parametrize(
    ("subject", "signature"),
    [
        (KIT_TOOLS[0], "calculator(expression: str)"),
        (
            KIT_TOOLS[1],
            'search(query: str, limit: int = 5, language: Literal["en", "fr"] = "en")',
        ),
        (KIT_TOOLS[5], "clock()"),
        (
            shapes,
            'shapes(points: list[{"x": float, "label": NotRequired[str | None]}], '
            'kind: Literal["line", "dots"] = "dots", tags: dict[str, int] | None = None, '
            "closed: bool = False)",
        ),
        (Described(), 'lookup(word: str, limit: int = ..., **{"file-name": NotRequired[str]})'),
        (Anything(), "anything(**kwargs: str)"),
    ],
)
def test_signatures_are_python(subject: Tool, signature: str) -> None:
    assert python_signature(subject) == signature


def test_required_parameters_come_first_as_positional_arguments_do() -> None:
    assert parameter_order(Described().parameters) == ["word", "limit", "file-name"]
    chain = PythonicToolChain([Described()])
    assert chain.parse('lookup("cat", 2)')[0].args == {"word": "cat", "limit": 2}


def test_the_guidance_lists_each_tool_with_its_described_arguments() -> None:
    guidance = PythonicToolChain([Described(), Anything()]).guidance
    listed = guidance.split("Available tools:\n", 1)[1]
    assert listed.splitlines() == [
        '- lookup(word: str, limit: int = ..., **{"file-name": NotRequired[str]}) — '
        "Look a word up.",
        "    word: the word",
        "    limit: how many results",
        "- anything(**kwargs: str)",
    ]


def test_the_guidance_shows_one_call_then_several_of_a_made_up_tool() -> None:
    """Tools without worked examples: no schema value is shown (a model copies it)."""
    chain = PythonicToolChain(KIT_TOOLS)
    guidance = chain.guidance
    assert guidance.startswith(
        "Call tools by writing Python function calls with keyword arguments, for example "
        "(city_population is a made-up tool):\n"
        'city_population(city="Lyon")\n'
        "To call several tools, or one tool several times, in one step, write one call per "
        "line:\n"
        'city_population(city="Lyon")\ncity_population(city="Porto")\n'
    )
    assert "Nothing is evaluated" in guidance


def test_the_guidance_never_shows_the_tools_declared_examples() -> None:
    @tool(
        examples=[
            ToolExample("Double 4.", {"n": 4}, 8),
            ToolExample("Double 21.", {"n": 21}, 42),
        ]
    )
    def double(n: int) -> int:
        """Double a number."""
        return 2 * n

    guidance = PythonicToolChain([*KIT_TOOLS, double]).guidance
    assert guidance.startswith(
        "Call tools by writing Python function calls with keyword arguments, for example "
        '(city_population is a made-up tool):\ncity_population(city="Lyon")\n'
    )
    assert "n=4" not in guidance and "n=21" not in guidance


def test_without_tools_the_guidance_still_shows_the_syntax() -> None:
    guidance = PythonicToolChain([]).guidance
    assert 'city_population(city="Lyon")' in guidance
    assert guidance.endswith("Available tools:\n(none)")


def test_types_of_schemas_without_a_type() -> None:
    assert python_type({}, {}) == "Any"
    assert python_type({"$ref": "#/$defs/missing"}, {}) == "Any"
    assert python_type({"type": ["string", "null"]}, {}) == "str | None"
    assert python_type({"const": True}, {}) == "Literal[True]"
    assert python_type({"type": "array"}, {}) == "list"
    assert python_type({"type": "object"}, {}) == "dict"

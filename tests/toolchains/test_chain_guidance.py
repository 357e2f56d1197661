"""The prompt guidance of the json and yaml chains."""

from __future__ import annotations

import datetime as dt
import json
from typing import Annotated, Literal

import yaml
from gent_json import JSONToolChain
from gent_yaml import YAMLToolChain
from pydantic import Field

from gent_core._callparse import read_json_calls
from gent_core._guidance import example_arguments
from gent_core.tools import tool
from gent_core.tools._describe import describe_tool


@tool
def search(query: str, limit: int = 5) -> str:
    """Search the web."""
    return query


@tool
def convert(amount: float, unit: str = "celsius", exact: bool = False) -> float:
    """Convert a temperature."""
    return amount


def test_json_guidance_shows_the_syntax_an_example_and_every_tool() -> None:
    chain = JSONToolChain([search, convert])
    lines = chain.guidance.splitlines()
    assert lines[1] == '{"tool": "search", "args": {"query": "example query"}}'
    assert lines[1] == chain.format_calls(chain.example_calls()[:1])
    assert json.loads(lines[3]) == [
        {"tool": "search", "args": {"query": "example query"}},
        {"tool": "convert", "args": {"amount": 2.5}},
    ]
    assert lines[-2:] == [f"- {describe_tool(search)}", f"- {describe_tool(convert)}"]


def test_json_guidance_examples_parse_as_calls() -> None:
    guidance = JSONToolChain([search, convert]).guidance.splitlines()
    assert [call.tool for call in read_json_calls(guidance[3])] == ["search", "convert"]


def test_yaml_guidance_examples_are_valid_calls() -> None:
    chain = YAMLToolChain([search, convert])
    text = chain.guidance
    single = text.split("for example:\n", 1)[1].split("\nTo call several", 1)[0]
    assert yaml.safe_load(single) == {"tool": "search", "args": {"query": "example query"}}
    several = text.split("list of calls:\n", 1)[1].split("\nWrite multi-line", 1)[0]
    assert [call.tool for call in chain.parse(several)] == ["search", "convert"]
    assert f"- {describe_tool(convert)}" in text
    assert 'Write multi-line text as a block: "content: |"' in text


def test_guidance_without_tools() -> None:
    assert "(none)" in JSONToolChain().guidance
    assert "(none)" in YAMLToolChain().guidance


def test_section_name_is_configurable() -> None:
    assert JSONToolChain(section_name="tools").name == "tools"
    assert YAMLToolChain(section_name="do").name == "do"


def test_example_arguments_prefer_schema_examples_and_defaults() -> None:
    @tool
    def pick(colour: str, size: int) -> str:
        """Pick."""
        return colour

    pick.parameters["properties"]["colour"]["examples"] = ["red"]
    assert example_arguments(pick) == {"colour": "red", "size": 3}


def test_example_values_are_concrete_never_placeholders() -> None:
    @tool
    def clock(
        timezone: Annotated[
            str | None, Field(description="an IANA time zone such as Europe/Paris; or local")
        ] = None,
    ) -> str:
        """Tell the time."""
        return timezone or ""

    @tool
    def note(title: str, when: dt.date, mood: Literal["calm", "busy"], pages: list[int]) -> str:
        """Write a note."""
        return title

    assert example_arguments(clock) == {"timezone": "Europe/Paris"}
    assert example_arguments(note) == {
        "title": "example title",
        "when": "2024-05-01",
        "mood": "calm",
        "pages": [3],
    }
    note.validate_arguments(example_arguments(note))


def test_a_tool_without_required_arguments_or_examples_gets_no_arguments() -> None:
    @tool
    def roll(sides: int = 6) -> int:
        """Roll a die."""
        return sides

    @tool
    def pause(seconds: float | None = None) -> None:
        """Pause."""

    assert example_arguments(roll) == {"sides": 6}  # its default is a concrete example
    assert example_arguments(pause) == {}

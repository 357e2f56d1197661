"""The prompt guidance of the json and yaml chains."""

from __future__ import annotations

import datetime as dt
import json
from typing import Annotated, Literal

import yaml
from gent_json import JSONToolChain, read_json_calls
from gent_yaml import YAMLToolChain
from pydantic import Field

from gent_core._guidance import example_arguments
from gent_core.tools import ToolExample, tool
from gent_core.tools._describe import describe_tool


@tool
def search(query: str, limit: int = 5) -> str:
    """Search the web."""
    return query


@tool
def convert(amount: float, unit: str = "celsius", exact: bool = False) -> float:
    """Convert a temperature."""
    return amount


LYON = {"tool": "city_population", "args": {"city": "Lyon"}}
PORTO = {"tool": "city_population", "args": {"city": "Porto"}}


def test_json_guidance_shows_one_call_several_calls_and_every_tool() -> None:
    """Tools without worked examples: the calls shown are of a made-up tool, said to be one,
    so no value made from a schema ("example query") is there to be copied."""
    chain = JSONToolChain([search, convert])
    lines = chain.guidance.splitlines()
    assert lines[0].endswith("for example (city_population is a made-up tool):")
    assert json.loads(lines[1]) == LYON
    assert (
        lines[2]
        == "To call several tools, or one tool several times, in one step, write a list of calls:"
    )
    assert json.loads(lines[3]) == [LYON, PORTO]
    assert lines[-2:] == [f"- {describe_tool(search)}", f"- {describe_tool(convert)}"]
    assert "example query" not in chain.guidance


def test_json_guidance_shows_a_made_up_tool_even_when_tools_declare_examples() -> None:
    """The guidance is in the system text all run long: a declared value there would be
    copied as a result once a call fails (issue 26), so it is the few-shot's alone."""

    @tool(
        examples=[
            ToolExample("Weather in Oslo?", {"city": "Oslo"}, "snow"),
            ToolExample("Weather in Lima?", {"city": "Lima"}, "sun"),
        ]
    )
    def weather(city: str) -> str:
        """The weather in a city."""
        return city

    lines = JSONToolChain([search, weather]).guidance.splitlines()
    assert lines[0].endswith("for example (city_population is a made-up tool):")
    assert json.loads(lines[1]) == {"tool": "city_population", "args": {"city": "Lyon"}}
    assert [call.tool for call in read_json_calls(lines[3])] == ["city_population"] * 2
    assert "Oslo" not in "\n".join(lines)


def test_yaml_guidance_examples_are_valid_calls() -> None:
    chain = YAMLToolChain([search, convert])
    text = chain.guidance
    single = text.split("made-up tool):\n", 1)[1].split("\nTo call several", 1)[0]
    assert yaml.safe_load(single) == LYON
    several = text.split("list of calls:\n", 1)[1].split("\nWrite multi-line", 1)[0]
    assert [call.args for call in chain.parse(several)] == [{"city": "Lyon"}, {"city": "Porto"}]
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

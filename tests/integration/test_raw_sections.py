"""Tool chains read the section's text as written (issue 11, bug 18): a YAML block scalar
keeps its final line end in every format, through a whole agent run."""

from __future__ import annotations

import asyncio

import pytest
from gent_markdown import MarkdownFormat
from gent_xml import XMLFormat
from gent_yaml import YAMLToolChain

from gent_core._agent import Agent
from gent_core.formats import TextFormat
from gent_core.sections import FormattedSection
from gent_core.testing import ScriptedModel
from gent_core.tools import FunctionTool, tool

FORMATS: dict[str, type[TextFormat]] = {"xml": XMLFormat, "markdown": MarkdownFormat}
LINES = "first line\nsecond line"


def make_writer(written: list[str]) -> FunctionTool:
    @tool
    def write_file(path: str, content: str) -> str:
        """Write a text file."""
        written.append(content)
        return f"{len(content)} characters written to {path}"

    return write_file


@pytest.mark.parametrize("fmt_name", sorted(FORMATS))
@pytest.mark.parametrize(
    ("block", "expected"),
    [("|", LINES + "\n"), ("|-", LINES), ("|+", LINES + "\n")],
)
def test_a_yaml_block_reaches_the_tool_as_the_model_wrote_it(
    fmt_name: str, block: str, expected: str
) -> None:
    text_format = FORMATS[fmt_name]()
    written: list[str] = []
    call = (
        f"tool: write_file\nargs:\n  path: notes.txt\n  content: {block}\n"
        "    first line\n    second line"
    )
    # What a model writes: the action, then (until the stop sequence ends it) an
    # observation of its own making.
    output = (
        text_format.format_sections(
            [FormattedSection("thinking", "I write the file."), FormattedSection("action", call)]
        )
        + "\n"
        + text_format.format_observation([FormattedSection("write_file", "done")])
    )
    answer = text_format.format_section("answer", "Done.")
    agent = Agent(
        ScriptedModel([output, answer]),
        text_format,
        YAMLToolChain(),
        tools=[make_writer(written)],
    )
    result = asyncio.run(agent.run("Write the notes."))
    assert result.stop_reason == "answer", result.message
    assert written == [expected]


def test_the_section_text_as_written_is_kept_next_to_the_trimmed_content() -> None:
    for text_format in (XMLFormat(), MarkdownFormat()):
        text = text_format.format_section("action", "a: |\n  x\n")
        section = text_format.parse(text, ["action"]).sections[0]
        assert section.content == "a: |\n  x"
        assert section.raw is not None and section.raw.strip() == section.content
        assert section.untrimmed == section.raw
    xml = XMLFormat().parse("<action>\na: |\n  x\n</action>", ["action"]).sections[0]
    assert xml.raw == "\na: |\n  x\n"

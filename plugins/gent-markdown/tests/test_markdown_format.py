"""Formatting, the verbatim block, attributes, nesting, describe() and stop sequences of the
markdown format.

The checks every format must pass (round trips, streaming, linear time, grammar) run from the
conformance kit in ``test_markdown_conformance.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from gent_markdown import MarkdownFormat
from hypothesis import given
from hypothesis import strategies as st

from gent_core import TextTermination
from gent_core.sections import FormattedSection, TextSection
from gent_core.testing import StubChain, profile_examples

FMT = MarkdownFormat()
README = Path(__file__).resolve().parents[1] / "README.md"

TOKENS = st.sampled_from(
    [
        "# obs",
        "# Observation",
        "## obs",
        "#",
        "```",
        "````",
        "~~~",
        "   ```",
        "`",
        "~",
        "verbatim",
        "```verbatim\n",
        "{",
        "}",
        ":",
        " ",
        "\t",
        "\n",
        "\r",
        "x",
        "\u2028",
    ]
)
CONTENT = st.one_of(st.text(), st.lists(TOKENS, max_size=20).map("".join))
ATTRIBUTES = st.dictionaries(
    st.from_regex(r"[A-Za-z_][\w.:-]{0,8}", fullmatch=True), st.text(max_size=20), max_size=3
)
NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9_ .-]{0,10}[A-Za-z0-9_]|[A-Za-z_]", fullmatch=True)


def test_format_section_writes_a_header_then_the_content() -> None:
    assert FMT.format_section("calculator", "391") == "# calculator\n391"


def test_attributes_go_in_a_block_after_the_name() -> None:
    text = FMT.format_section("read_file", "x", attributes={"path": "a}b.txt", "n": "1"})
    assert text == '# read_file {path="a}b.txt" n="1"}\nx'
    assert dict(FMT.parse(text, ["read_file"]).sections[0].attributes) == {
        "path": "a}b.txt",
        "n": "1",
    }


def test_empty_content_is_a_bare_header() -> None:
    assert FMT.format_section("a", "\n ") == "# a"
    assert FMT.parse("# a", ["a"]).get("a") == [""]


def test_content_with_a_header_line_goes_in_a_verbatim_block() -> None:
    content = "line\n# Answer\n```py\nx = 1\n```"
    text = FMT.format_section("observation", content)
    assert text == f"# observation\n````verbatim\n{content}\n````"
    result = FMT.parse(text + "\n\n# answer\nok", ["observation", "answer"])
    assert result.get("observation") == [content]
    assert result.get("answer") == ["ok"]


def test_plain_content_is_written_as_is() -> None:
    content = "#hashtag\ninline ``` code\n    ```four spaces: not a fence\n``not a fence"
    assert FMT.format_section("x", content) == f"# x\n{content}"


@pytest.mark.parametrize("line", ["## sub", "### deeper", "#\tx", "  ~~~", "```"])
def test_any_header_like_or_fence_line_is_wrapped(line: str) -> None:
    assert re.match(r"# x\n`{3,}verbatim\na\n", FMT.format_section("x", f"a\n{line}\nb"))


def test_a_model_written_code_block_is_not_unwrapped() -> None:
    assert FMT.parse("# answer\n```python\nprint(1)\n```", ["answer"]).get("answer") == [
        "```python\nprint(1)\n```"
    ]


@pytest.mark.parametrize("name", ["", " x", "x ", "a\nb", "#x", "x:", "a{b}"])
def test_names_that_cannot_be_headers_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="Markdown section header"):
        FMT.format_section(name, "x")


def test_format_sections_raises_the_level_per_depth() -> None:
    text = FMT.format_sections(
        [
            FormattedSection(
                "observation",
                children=[
                    FormattedSection("calculator", "391"),
                    FormattedSection("box", children=[FormattedSection("inner", "1")]),
                ],
            )
        ]
    )
    assert text == "# observation\n\n## calculator\n391\n\n## box\n\n### inner\n1"


def test_format_observation_is_empty_without_results() -> None:
    assert FMT.format_observation([]) == ""
    text = FMT.format_observation([FormattedSection("calculator", "391")])
    outer = FMT.parse(text, ["observation"]).sections[0]
    children = MarkdownFormat(level=2).parse(outer.content, ["calculator"])
    assert children.get("calculator") == ["391"]


def test_stop_sequences_stop_before_an_observation() -> None:
    assert FMT.stop_sequences(["action"]) == ["\n# observation", "\n# Observation"]
    assert MarkdownFormat(observation_name="Result").stop_sequences([]) == ["\n# Result"]


def test_restoring_the_stop_sequence_keeps_the_action_intact() -> None:
    output = '# action\n{"tool": "calculator"}'
    restored = output + FMT.stop_sequences(["action"])[0]
    assert FMT.parse(restored, ["action", "answer"]).get("action") == ['{"tool": "calculator"}']


# --------------------------------------------------------------------------- round trips


@given(name=NAME, content=CONTENT, attributes=ATTRIBUTES)
@profile_examples(400)
def test_names_attributes_and_content_come_back_as_written(
    name: str, content: str, attributes: dict[str, str]
) -> None:
    text = FMT.format_section(name, content, attributes=attributes)
    result = FMT.parse(text, [name])
    assert len(result) == 1
    section = result.sections[0]
    assert section.content == content.strip()
    assert dict(section.attributes) == attributes
    assert section.complete


def _trees(depth: int) -> st.SearchStrategy[FormattedSection]:
    leaf = st.builds(FormattedSection, NAME, CONTENT)
    if depth == 0:
        return leaf
    parent = st.builds(
        FormattedSection,
        NAME,
        st.just(""),
        st.lists(_trees(depth - 1), min_size=1, max_size=3).map(tuple),
    )
    return st.one_of(leaf, parent)


def _check(text: str, sections: Sequence[FormattedSection], level: int) -> None:
    names = sorted({s.name for s in sections})
    result = MarkdownFormat(level=level).parse(text, names)
    assert [s.name.lower() for s in result] == [s.name.lower() for s in sections]
    for found, written in zip(result, sections, strict=True):
        if written.children:
            _check(found.content, written.children, level + 1)
        else:
            assert found.content == written.content.strip()


@given(st.lists(_trees(2), min_size=1, max_size=3))
@profile_examples(200)
def test_nested_sections_come_back_level_by_level(sections: list[FormattedSection]) -> None:
    _check(FMT.format_sections(sections), sections, 1)


# --------------------------------------------------------------------------- describe


def readme_sections() -> list[TextSection | TextTermination]:
    return [
        TextSection("thinking", "Think step by step about what to do next."),
        TextSection(
            "action",
            "Call a tool with a JSON object:\n"
            '{"tool": "calculator", "args": {"expression": "2+2"}}',
        ),
        TextTermination(),
    ]


def test_describe_lists_every_section_with_its_guidance() -> None:
    text = FMT.describe(readme_sections())
    assert "# thinking\n...\n# action\n...\n# answer\n..." in text
    assert "- thinking: Think step by step about what to do next." in text
    assert '  {"tool": "calculator", "args": {"expression": "2+2"}}' in text
    assert "Only these headers start a section: `# thinking`, `# action`, `# answer`." in text
    assert "observation" not in text


def test_describe_warns_against_writing_observations_when_there_are_tools() -> None:
    text = FMT.describe([StubChain(), TextTermination()])
    assert "Never write `# observation` yourself" in text


def test_readme_shows_the_real_describe_output() -> None:
    pattern = r"<!-- describe:start -->\n````text\n(.*?)\n````\n<!-- describe:end -->"
    block = re.search(pattern, README.read_text(encoding="utf-8"), re.S)
    assert block is not None, "README has no describe example"
    assert block.group(1) == FMT.describe(readme_sections())

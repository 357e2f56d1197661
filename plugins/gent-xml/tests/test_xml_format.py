"""Formatting, escaping, attributes, nesting, describe() and stop sequences of the xml format.

The checks every format must pass (round trips, streaming, linear time, grammar) run from the
conformance kit in ``test_xml_conformance.py``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from gent_xml import XMLFormat
from hypothesis import given
from hypothesis import strategies as st

from gent_core import TextTermination
from gent_core.sections import FormattedSection, TextSection
from gent_core.testing import StubChain, profile_examples

FMT = XMLFormat()
README = Path(__file__).resolve().parents[1] / "README.md"

TOKENS = st.sampled_from(
    [
        "<obs>",
        "</obs>",
        "</OBS >",
        "</obs",
        "<![CDATA[",
        "]]>",
        "]]",
        "<",
        ">",
        "/",
        " ",
        "\n",
        "\t",
        "x",
        "&amp;",
        "\r",
        "\u2028",
    ]
)
CONTENT = st.one_of(st.text(), st.lists(TOKENS, max_size=20).map("".join))
ATTRIBUTES = st.dictionaries(
    st.from_regex(r"[A-Za-z_][\w.:-]{0,8}", fullmatch=True), st.text(max_size=20), max_size=3
)
NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.:-]{0,10}", fullmatch=True)


def test_format_section_writes_tags_around_the_content() -> None:
    assert FMT.format_section("calculator", "391") == "<calculator>\n391\n</calculator>"


def test_format_section_writes_attributes() -> None:
    text = FMT.format_section("tool_call", "x", attributes={"name": 'a"b', "n": "1"})
    assert text == '<tool_call name="a&quot;b" n="1">\nx\n</tool_call>'


def test_empty_content_is_an_empty_pair_of_tags() -> None:
    assert FMT.format_section("a", "  ") == "<a></a>"
    assert FMT.parse("<a></a>", ["a"]).get("a") == [""]


def test_content_with_its_own_closing_tag_is_wrapped_in_cdata() -> None:
    content = 'print("</observation>") ]]> done'
    text = FMT.format_section("observation", content)
    assert text == (
        '<observation><![CDATA[\nprint("</observation>") ]]]]><![CDATA[> done\n]]></observation>'
    )
    assert FMT.parse(text, ["observation"]).get("observation") == [content]


def test_content_without_delimiters_is_written_as_is() -> None:
    content = "a < b, <b>bold</b>, ]]> and &amp;"
    assert FMT.format_section("x", content) == f"<x>\n{content}\n</x>"


def test_strict_mode_wraps_tag_like_content_so_strict_parsing_reads_it_back() -> None:
    # Found by fuzzing (fuzz/corpus/xml_oneshot): strict parsing refuses any recognised tag
    # inside a section, so content read from CDATA was written back bare and then refused.
    strict = XMLFormat(strict=True)
    names = ["thinking", "answer"]
    for content in ("wer> i and <br> <<answer>> </thinki>", "use <thinking> tags", "a </b"):
        written = strict.format_section("answer", content)
        assert "<![CDATA[" in written
        assert strict.parse(written, names).sections[0].content == content
    assert strict.format_section("answer", "a < b and 3<4") == "<answer>\na < b and 3<4\n</answer>"
    assert "CDATA" not in FMT.format_section("answer", "use <thinking> tags")


@pytest.mark.parametrize("name", ["", "two words", "1abc", "a>b", "-x", "<a", "Aİ"])
def test_names_that_cannot_be_tags_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="XML tag name"):
        FMT.format_section(name, "x")


def test_bad_attribute_keys_are_refused() -> None:
    with pytest.raises(ValueError, match="attribute name"):
        FMT.format_section("a", "x", attributes={"bad key": "1"})


def test_format_sections_nests_children_inside_the_parent() -> None:
    text = FMT.format_sections(
        [
            FormattedSection(
                "observation",
                children=[FormattedSection("calculator", "391"), FormattedSection("clock", "9")],
            )
        ]
    )
    assert text == (
        "<observation>\n<calculator>\n391\n</calculator>\n<clock>\n9\n</clock>\n</observation>"
    )


def test_format_observation_wraps_and_is_empty_without_results() -> None:
    assert FMT.format_observation([]) == ""
    text = FMT.format_observation([FormattedSection("calculator", "391")])
    outer = FMT.parse(text, ["observation"]).sections[0]
    assert FMT.parse(outer.content, ["calculator"]).get("calculator") == ["391"]


def test_stop_sequences_are_the_closing_tags() -> None:
    assert FMT.stop_sequences(["action", "answer"]) == ["</action>", "</answer>"]


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


def _check(text: str, sections: Sequence[FormattedSection]) -> None:
    names = sorted({s.name for s in sections})
    result = FMT.parse(text, names)
    assert [s.name.lower() for s in result] == [s.name.lower() for s in sections]
    for found, written in zip(result, sections, strict=True):
        if written.children:
            _check(found.content, written.children)
        else:
            assert found.content == written.content.strip()


@given(st.lists(_trees(2), min_size=1, max_size=3))
@profile_examples(200)
def test_nested_sections_come_back_level_by_level(sections: list[FormattedSection]) -> None:
    _check(FMT.format_sections(sections), sections)


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
    assert "<thinking>\n...\n</thinking>\n<action>\n...\n</action>" in text
    assert "- <thinking>: Think step by step about what to do next." in text
    assert '  {"tool": "calculator", "args": {"expression": "2+2"}}' in text
    assert "Only these tags start a section: <thinking>, <action>, <answer>." in text
    assert "observation" not in text


def test_describe_warns_against_writing_observations_when_there_are_tools() -> None:
    text = FMT.describe([StubChain(), TextTermination()])
    assert "Never write an <observation> section yourself" in text


def test_readme_shows_the_real_describe_output() -> None:
    pattern = r"<!-- describe:start -->\n```text\n(.*?)\n```\n<!-- describe:end -->"
    block = re.search(pattern, README.read_text(encoding="utf-8"), re.S)
    assert block is not None, "README has no describe example"
    assert block.group(1) == FMT.describe(readme_sections())

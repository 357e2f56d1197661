"""One-shot parsing rules of the xml format."""

from __future__ import annotations

import pytest
from gent_xml import XMLFormat

from gent_core.errors import AmbiguousSectionError, NoSectionsFoundError
from gent_core.sections import TextSection

NAMES = ["thinking", "action", "answer"]


def parse(text: str, names: list[str] = NAMES, *, strict: bool = False):  # type: ignore[no-untyped-def]
    return XMLFormat(strict=strict).parse(text, names)


def test_three_sections_on_many_lines_in_order() -> None:
    text = "<thinking>\nadd them\n</thinking>\n<action>\n[1, 2]\n</action>\n<answer>3</answer>"
    result = parse(text)
    assert [(s.name, s.content) for s in result] == [
        ("thinking", "add them"),
        ("action", "[1, 2]"),
        ("answer", "3"),
    ]
    assert all(section.complete for section in result)
    assert result.truncated is None


def test_section_on_one_line() -> None:
    assert parse("<answer>42</answer>").get("answer") == ["42"]


def test_names_match_case_insensitively_and_use_the_registered_name() -> None:
    result = parse("<THINKING>x</Thinking><Answer>y</ANSWER>", ["Thinking", "answer"])
    assert [(s.name, s.content) for s in result] == [("Thinking", "x"), ("answer", "y")]


def test_content_is_trimmed_and_outside_text_is_kept_aside() -> None:
    result = parse("Sure! Here it is.\n<answer>\n\n  42 \n</answer>\nHope this helps.")
    assert result.get("answer") == ["42"]
    assert result.outside == "Sure! Here it is.\nHope this helps."


def test_offsets_point_at_the_tags() -> None:
    text = "ab<answer>42</answer>cd"
    section = parse(text).sections[0]
    assert text[section.start : section.end] == "<answer>42</answer>"


def test_no_recognised_section_raises_with_an_example_for_the_model() -> None:
    with pytest.raises(NoSectionsFoundError) as caught:
        parse("I think the answer is 42 <unknown>x</unknown>")
    error = caught.value
    assert error.expected == tuple(NAMES)
    assert "<answer>\n...\n</answer>" in error.model_message
    assert "thinking, action, answer" in error.model_message


def test_sections_may_be_section_objects() -> None:
    result = XMLFormat().parse("<thinking>x</thinking>", [TextSection("thinking", "why")])
    assert result.get("thinking") == ["x"]


@pytest.mark.parametrize(
    "content",
    [
        "a < b && c > d",
        "x <br> y <br/> z",
        "stray < and <<< and <",
        '{"html": "<hello>", "n": 1}',
        "if (a<b) { return x<<2; }",
        "<unknown attr='1'>text</unknown>",
        "x <![CDATA[ not at the start",
        "1 </ 2",
    ],
)
def test_not_xml_anything_but_the_closing_tag_is_content(content: str) -> None:
    assert parse(f"<answer>{content}</answer>").get("answer") == [content.strip()]


def test_prose_mentioning_a_tag_inside_thinking_does_not_break_the_answer() -> None:
    result = parse("<thinking>I will write <answer> tags later</thinking><answer>42</answer>")
    assert [(s.name, s.content) for s in result] == [
        ("thinking", "I will write <answer> tags later"),
        ("answer", "42"),
    ]


def test_recognised_tags_inside_an_open_section_are_content_until_its_own_closing_tag() -> None:
    text = "<action>see <thinking>x</thinking> and </answer></action><answer>ok</answer>"
    result = parse(text)
    assert result.get("action") == ["see <thinking>x</thinking> and </answer>"]
    assert result.get("answer") == ["ok"]


def test_the_first_closing_tag_of_the_open_section_closes_it() -> None:
    result = parse("<thinking>a <thinking> b</thinking> c</thinking>")
    assert result.get("thinking") == ["a <thinking> b"]
    assert result.outside == "c</thinking>"


def test_closing_tag_with_spaces_and_other_case() -> None:
    assert parse("<answer>42</ANSWER \n >").get("answer") == ["42"]


def test_unclosed_last_section_is_reported_as_truncated() -> None:
    result = parse("<thinking>done</thinking><answer>The result is 4")
    assert result.get("answer") == ["The result is 4"]
    truncated = result.truncated
    assert truncated is not None and truncated.name == "answer" and not truncated.complete
    assert result.sections[0].complete


def test_output_cut_inside_a_closing_tag_is_truncated() -> None:
    result = parse("<answer>42</ans")
    assert result.truncated is not None
    assert result.get("answer") == ["42</ans"]


def test_output_cut_inside_an_opening_tag_is_outside_text() -> None:
    result = parse("<thinking>x</thinking><answ")
    assert [s.name for s in result] == ["thinking"]
    assert result.truncated is None
    assert result.outside == "<answ"


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ('<action name="calc">', {"name": "calc"}),
        ("<action name='calc' mode=fast>", {"name": "calc", "mode": "fast"}),
        ('<action\n  name="a b"\n  x="&lt;&amp;&quot;">', {"name": "a b", "x": '<&"'}),
        ("<action a=1 b = '2' >", {"a": "1", "b": "2"}),
    ],
)
def test_attributes(tag: str, expected: dict[str, str]) -> None:
    section = parse(f"{tag}body</action>").sections[0]
    assert section.content == "body"
    assert dict(section.attributes) == expected


@pytest.mark.parametrize(
    "tag", ["<action name>", '<action ="x">', '<action name="x>', "<action=1>", "<action-x>"]
)
def test_malformed_opening_tags_are_text(tag: str) -> None:
    with pytest.raises(NoSectionsFoundError):
        parse(f"{tag}body</action>")


def test_self_closing_tag_is_an_empty_section() -> None:
    result = parse('<thinking/><action name="x" /><answer>1</answer>')
    assert [(s.name, s.content, dict(s.attributes)) for s in result] == [
        ("thinking", "", {}),
        ("action", "", {"name": "x"}),
        ("answer", "1", {}),
    ]


def test_leading_cdata_is_unwrapped_and_protects_the_closing_tag() -> None:
    text = "<answer> <![CDATA[ a </answer> b ]]]]><![CDATA[> c ]]> </answer>"
    assert parse(text).get("answer") == ["a </answer> b ]]> c"]


def test_cdata_followed_by_more_text_keeps_the_raw_text() -> None:
    assert parse("<answer><![CDATA[x]]> y</answer>").get("answer") == ["<![CDATA[x]]> y"]


def test_unterminated_cdata_is_truncated() -> None:
    result = parse("<answer><![CDATA[ x </answer>")
    assert result.truncated is not None
    assert result.get("answer") == ["<![CDATA[ x </answer>"]


def test_too_long_tag_is_text() -> None:
    tag = '<action note="' + "x" * 2000 + '">'
    with pytest.raises(NoSectionsFoundError):
        parse(tag + "body</action>")


# --------------------------------------------------------------------------- strict mode


def test_strict_mode_accepts_clean_output() -> None:
    result = parse("<thinking>a</thinking>\n<answer>b</answer>", strict=True)
    assert result.get("answer") == ["b"]


def test_strict_mode_reports_a_recognised_tag_inside_a_section() -> None:
    text = "<thinking>I will write <answer> tags later</thinking><answer>42</answer>"
    with pytest.raises(AmbiguousSectionError) as caught:
        parse(text, strict=True)
    error = caught.value
    assert error.location.section == "thinking"
    assert error.location.offset == text.index("<answer>")
    assert "<answer>" in error.model_message and "</thinking>" in error.model_message


def test_strict_mode_reports_a_closing_tag_that_closes_nothing() -> None:
    with pytest.raises(AmbiguousSectionError, match="closes no open section"):
        parse("42</answer>", strict=True)


def test_strict_mode_still_treats_unknown_tags_and_cdata_as_content() -> None:
    text = "<answer><b>x</b></answer><action><![CDATA[</action><answer>]]></action>"
    result = parse(text, strict=True)
    assert result.get("answer") == ["<b>x</b>"]
    assert result.get("action") == ["</action><answer>"]


def test_a_tag_mentioned_outside_every_section_opens_it_and_strict_mode_says_so() -> None:
    text = "I will put the result in <answer> tags.\n<answer>42</answer>"
    assert parse(text).get("answer") == ["tags.\n<answer>42"]
    with pytest.raises(AmbiguousSectionError):
        parse(text, strict=True)

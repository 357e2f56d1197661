"""One-shot parsing rules of the markdown format."""

from __future__ import annotations

import pytest
from gent_markdown import MarkdownFormat

from gent_core.errors import NoSectionsFoundError
from gent_core.sections import ParseResult, TextSection

NAMES = ["thinking", "action", "answer"]


def parse(text: str, names: list[str] = NAMES, *, level: int = 1) -> ParseResult:
    return MarkdownFormat(level=level).parse(text, names)


def test_three_sections_in_order() -> None:
    text = "# Thinking\nadd them\n\n# Action\n[1, 2]\n\n# Answer\n3\n"
    result = parse(text)
    assert [(s.name, s.content) for s in result] == [
        ("thinking", "add them"),
        ("action", "[1, 2]"),
        ("answer", "3"),
    ]
    assert all(section.complete for section in result)


@pytest.mark.parametrize(
    "header",
    ["# Answer", "# answer", "#   ANSWER", "#\tAnswer", "# Answer  ", "# Answer:", "# Answer :\r"],
)
def test_header_spellings(header: str) -> None:
    assert parse(f"{header}\n42").get("answer") == ["42"]


@pytest.mark.parametrize(
    "line", ["## Answer", "#Answer", " # Answer", "# Answer: 42", "# Answers", "text # Answer"]
)
def test_lines_that_are_not_headers_are_content(line: str) -> None:
    result = parse(f"# thinking\n{line}\nmore")
    assert [s.name for s in result] == ["thinking"]
    assert result.get("thinking") == [f"{line}\nmore".strip()]


def test_text_before_the_first_header_is_outside() -> None:
    result = parse("Sure, here goes.\n# Answer\n42")
    assert result.get("answer") == ["42"]
    assert result.outside == "Sure, here goes."


def test_offsets() -> None:
    text = "hi\n# Answer\n42\n# Thinking\nx"
    first = parse(text).sections[0]
    assert text[first.start : first.end] == "# Answer\n42\n"


def test_no_section_raises_with_an_example() -> None:
    with pytest.raises(NoSectionsFoundError) as caught:
        parse("## Answer\n42")
    assert "# answer\n..." in caught.value.model_message


def test_section_objects_are_accepted() -> None:
    assert MarkdownFormat().parse("# t\nx", [TextSection("t")]).get("t") == ["x"]


def test_headers_inside_a_code_fence_are_content() -> None:
    text = "# Action\n```python\n# Answer\nprint(1)\n```\n# Answer\n42"
    result = parse(text)
    assert result.get("action") == ["```python\n# Answer\nprint(1)\n```"]
    assert result.get("answer") == ["42"]


def test_tilde_fences_and_closing_rule() -> None:
    text = "# Action\n~~~~\n```\n# Answer\n~~~\n# Answer\n~~~~~\n# Answer\n42"
    result = parse(text)
    assert result.get("answer") == ["42"]
    assert result.get("action") == ["~~~~\n```\n# Answer\n~~~\n# Answer\n~~~~~"]


def test_fence_closing_line_needs_only_the_fence() -> None:
    text = "# Action\n```\n``` not a close\n# Answer\n```\n# Answer\nok"
    assert parse(text).get("answer") == ["ok"]


def test_indented_fences_up_to_three_spaces() -> None:
    text = "# Action\n   ```\n# Answer\n   ```\n# Answer\nyes"
    assert parse(text).get("answer") == ["yes"]
    four = "# Action\n    ```\n# Answer\nfour"
    assert parse(four).get("answer") == ["four"]


def test_backtick_fence_info_string_may_not_hold_a_backtick() -> None:
    text = "# Action\n```inline``` code\n# Answer\n42"
    assert parse(text).get("answer") == ["42"]


def test_output_ending_inside_a_fence_is_truncated() -> None:
    result = parse('# Thinking\nok\n# Action\n```json\n{"tool": ')
    truncated = result.truncated
    assert truncated is not None and truncated.name == "action"
    assert truncated.content == '```json\n{"tool":'
    assert result.sections[0].complete


def test_last_section_without_a_fence_is_complete() -> None:
    assert parse("# Answer\nThe result is").truncated is None


def test_attributes_in_the_header() -> None:
    section = parse("# action {tool=\"read\" path='a b.txt' n=3}\nx").sections[0]
    assert dict(section.attributes) == {"tool": "read", "path": "a b.txt", "n": "3"}
    assert section.content == "x"


def test_malformed_attribute_block_is_not_a_header() -> None:
    with pytest.raises(NoSectionsFoundError):
        parse("# action {tool=}\nx")


def test_observation_header_ends_the_section_even_when_not_registered() -> None:
    result = parse('# Action\n{"tool": "x"}\n# Observation\nmade up result\n# Answer\n1')
    assert result.get("action") == ['{"tool": "x"}']
    assert result.get("answer") == ["1"]
    assert result.outside == "# Observation\nmade up result"


def test_level_two_reads_children() -> None:
    result = parse("# parent\n## a\n1\n## b\n2", ["a", "b"], level=2)
    assert [(s.name, s.content) for s in result] == [("a", "1"), ("b", "2")]
    assert result.outside == "# parent"


def test_level_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        MarkdownFormat(level=0)


def test_windows_line_endings() -> None:
    result = parse("# Action\r\n```\r\n# Answer\r\n```\r\n# Answer\r\n42\r\n")
    assert result.get("answer") == ["42"]


def test_too_long_header_line_is_content() -> None:
    line = "# answer" + " " * 2000
    result = parse(f"# thinking\n{line}\nx")
    assert [s.name for s in result] == ["thinking"]

"""The yaml tool chain against the ToolChain contract (conformance kit), its grammar and how
it writes calls."""

from __future__ import annotations

from collections.abc import Sequence

import yaml
from gent_yaml import YAMLToolChain
from gent_yaml.write import yaml_key
from hypothesis import given
from hypothesis import strategies as st

from gent_core.grammar import MAX_CALLS, GrammarBuilder, GrammarMatcher, check_gbnf
from gent_core.testing import KIT_TOOLS, ChainConformance, profile_examples
from gent_core.toolchain import ToolCall
from gent_core.tools.base import Tool


class TestYAMLToolChain(ChainConformance):
    """Round trip, documented errors, examples, guidance and grammar."""

    detects_truncation = False
    truncation_note = (
        "A YAML mapping or block scalar has no closing delimiter: an output cut at a line end "
        "reads as a shorter valid call. The format (an unclosed section) and the back end's "
        "finish reason catch such cuts, and the agent never runs calls from a cut output; "
        "cuts inside a quoted string or a flow collection are TruncatedCallError here."
    )

    def make_chain(self, tools: Sequence[Tool]) -> YAMLToolChain:
        return YAMLToolChain(tools)


def grammar() -> GrammarMatcher:
    builder = GrammarBuilder()
    rule = YAMLToolChain(KIT_TOOLS).grammar_calls(builder)
    text = builder.build(rule).text
    check_gbnf(text)
    return GrammarMatcher(text)


def test_calls_are_a_mapping_or_a_block_list_of_known_tools() -> None:
    matcher = grammar()
    assert matcher.matches('tool: calculator\nargs:\n  expression: "2 + 2"')
    assert matcher.matches(
        '- tool: search\n  args:\n    query: "cats"\n    limit: 2\n- tool: clock\n  args: {}'
    )
    assert matcher.matches('tool: plot\nargs:\n  points: [{"x": 1.5, "y": 2}]\n  title: null')
    assert matcher.matches("tool: clock\nargs: {}")
    assert not matcher.matches("tool: calculator\nargs:\n  expression: 2 + 2")
    assert not matcher.matches('tool: rm\nargs:\n  path: "/"')


def test_an_action_holds_at_most_max_calls() -> None:
    matcher = grammar()
    item = "- tool: clock\n  args: {}"
    assert matcher.matches("\n".join([item] * MAX_CALLS))
    assert not matcher.matches("\n".join([item] * (MAX_CALLS + 1)))


def test_keys_are_quoted_when_plain_would_change_meaning() -> None:
    assert yaml_key("path") == "path"
    assert yaml_key("yes") == '"yes"'
    assert yaml_key("a key") == '"a key"'
    assert yaml.safe_load(f"{yaml_key('on')}: 1") == {"on": 1}


def test_multi_line_text_is_written_as_a_literal_block() -> None:
    chain = YAMLToolChain(KIT_TOOLS)
    call = ToolCall("write_file", {"path": "a.txt", "content": "line 1\nline 2\n"})
    written = chain.format_calls([call])
    assert written == (
        'tool: write_file\nargs:\n  path: "a.txt"\n  content: |\n    line 1\n    line 2\n'
    )
    assert chain.parse(written)[0].args == call.args
    no_final_break = ToolCall("write_file", {"path": "a.txt", "content": "a\nb"})
    assert "content: |-\n" in chain.format_calls([no_final_break])


LINES = st.lists(
    st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=12),
    min_size=2,
    max_size=5,
)


@given(lines=LINES, final_break=st.booleans())
@profile_examples(300)
def test_any_multi_line_text_comes_back_exactly(lines: list[str], final_break: bool) -> None:
    chain = YAMLToolChain(KIT_TOOLS)
    content = "\n".join(lines) + ("\n" if final_break else "")
    for tool in ("write_file", "t_unknown"):
        call = ToolCall(tool, {"path": "a.txt", "content": content})
        written = chain.format_calls([call, call])
        assert [c.args for c in chain.parse(written)] == [call.args, call.args], written

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gent_core._grammar import GrammarBuilder, char_class, check_gbnf, literal, matches, rule_name


@given(st.text(max_size=30))
def test_a_literal_matches_exactly_its_text(text: str) -> None:
    grammar = f"root ::= {literal(text)}\n"
    check_gbnf(grammar)
    assert matches(grammar, text)
    assert not matches(grammar, text + "x")


@given(st.lists(st.characters(), min_size=1, max_size=12), st.characters())
def test_a_char_class_matches_its_characters_and_nothing_else(chars: list[str], other: str) -> None:
    grammar = f"root ::= {char_class(chars)}\n"
    check_gbnf(grammar)
    for char in chars:
        assert matches(grammar, char)
    assert matches(grammar, other) == (other in chars)
    negated = f"root ::= {char_class(chars, negated=True)}\n"
    assert matches(negated, other) == (other not in chars)


def test_escapes_of_special_characters() -> None:
    assert literal('a"b\\c\nd\te\x01') == r'"a\"b\\c\nd\te\x01"'
    assert char_class(["]", "-", "^", "\\"]) == r"[\]\x2D\x5E\\]"


def test_rule_names_keep_only_letters_digits_and_dashes() -> None:
    assert rule_name("read_file.args") == "read-file-args"
    assert rule_name("___") == "rule"


def test_builder_shares_identical_rules_and_suffixes_clashing_names() -> None:
    builder = GrammarBuilder()
    assert builder.add("word", "[a-z]+") == "word"
    assert builder.add("word", "[a-z]+") == "word"
    assert builder.add("word", "[0-9]+") == "word-2"
    grammar = builder.build('word " " word-2')
    assert grammar.text.splitlines()[0] == 'root ::= word " " word-2'
    assert matches(grammar.text, "abc 42")


def test_reserved_rules_allow_recursion_and_must_be_defined() -> None:
    builder = GrammarBuilder()
    name = builder.reserve("list")
    builder.define(name, f'"(" {name}* ")"')
    assert matches(builder.build(name).text, "(()(()))")
    other = GrammarBuilder()
    other.reserve("never")
    with pytest.raises(ValueError, match="never"):
        other.build('"x"')
    with pytest.raises(KeyError):
        other.define("unknown", '"x"')


def test_root_is_reserved_for_build() -> None:
    builder = GrammarBuilder()
    builder.add("root", '"x"')
    with pytest.raises(ValueError, match="root"):
        builder.build('"y"')

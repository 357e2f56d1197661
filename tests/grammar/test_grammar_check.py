"""The pure-Python GBNF checker agrees with llama.cpp's parser."""

from __future__ import annotations

import pytest

from gent_core._grammar import GrammarSyntaxError, check_gbnf
from tests.grammar.grammar_llama_check import llama_accepts

CASES = [
    ('root ::= "a"', True),
    ('root ::= "a"{2}', True),
    ('root ::= "a"{2,}', True),
    ('root ::= "a"{2,5}', True),
    ('root ::= "a"{,3}', False),
    ('root ::= x\nx ::= "a"\nx ::= "b"', True),
    ('root ::= "a" # comment\n# a comment line\n', True),
    ('root ::= ("a"\n | "b")', True),
    ('root ::= "a"\n | "b"', False),
    ('root ::= "a" "b"\n"c"', False),
    ('root ::= "\\q"', False),
    ('root ::= "\\x4"', False),
    ('root ::= "\\x41\\u00e9\\n"', True),
    ("root ::= [a-]", True),
    ("root ::= [-a]", True),
    ("root ::= [^a-z0-9\\]]", True),
    ("root ::= *", False),
    ("root ::= x? root", False),
    ('root ::= x* "a"\nx ::= "b"', True),
    ("root ::= ", True),
    ('root ::= ""', True),
    ('root ::= (x | "") root\nx ::= "a"', False),
    ('root ::= x\nx ::= y "a"\ny ::= x? "b"', False),
    ('root ::= x\nx ::= "a" y\ny ::= x? "b"', True),
    ('root::="a"', True),
    ('root ::= "a" ::= "b"', False),
    ("root ::= .", True),
    ('ro_ot ::= "a"', False),
    ('root ::= "é" [λ-ω]', True),
    ('x ::= "a"', False),
    ('root ::= "a', False),
    ('root ::= ["a"', False),
    ('root ::= ("a"', False),
    ("root ::= undefined-rule", False),
]


@pytest.mark.llama
def test_checker_agrees_with_llama_cpp() -> None:
    llama = llama_accepts([text for text, _ in CASES])
    for (text, expected), by_llama in zip(CASES, llama, strict=True):
        assert by_llama == expected, f"llama.cpp disagrees with the table on {text!r}"
        try:
            check_gbnf(text)
            ours = True
        except GrammarSyntaxError:
            ours = False
        assert ours == expected, f"our checker disagrees with llama.cpp on {text!r}"


def test_checker_is_stricter_than_llama_on_empty_classes_and_bad_ranges() -> None:
    # llama.cpp accepts "[]" (matches nothing) and hangs on {3,1}; we refuse both.
    with pytest.raises(GrammarSyntaxError, match="empty character class"):
        check_gbnf("root ::= []")
    with pytest.raises(GrammarSyntaxError, match="maximum below its minimum"):
        check_gbnf('root ::= "a"{3,1}')


def test_errors_say_where() -> None:
    with pytest.raises(GrammarSyntaxError) as info:
        check_gbnf('root ::= "a"\nitem ::= "b" )\n')
    assert info.value.location.line == 2
    assert info.value.location.column == 1
    with pytest.raises(GrammarSyntaxError, match="undefined rule identifier 'thing'"):
        check_gbnf("root ::= thing")
    with pytest.raises(GrammarSyntaxError, match="left recursion"):
        check_gbnf('root ::= root "a" | "b"')


def test_returns_rule_names_in_order() -> None:
    assert check_gbnf('root ::= a b\na ::= "x"\nb ::= "y"\n') == ["root", "a", "b"]

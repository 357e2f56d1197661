"""Reading what models write: messy output around the calls, the list form, positional
arguments, the JSON constants, and where each error points."""

from __future__ import annotations

from typing import Any

import pytest
from gent_pythonic import PythonCallError, PythonicToolChain

from gent_core.errors import TruncatedCallError
from gent_core.testing import KIT_TOOLS

CHAIN = PythonicToolChain(KIT_TOOLS)


def read(text: str, chain: PythonicToolChain = CHAIN) -> list[tuple[str, dict[str, Any]]]:
    return [(call.tool, call.args) for call in chain.parse(text)]


CALC = ("calculator", {"expression": "17 * 23"})
CLOCK: tuple[str, dict[str, Any]] = ("clock", {})


@pytest.mark.parametrize(
    "text",
    [
        'calculator(expression="17 * 23")',
        "calculator(expression='17 * 23')",
        '\n\n  calculator(expression="17 * 23")  \n',
        '```python\ncalculator(expression="17 * 23")\n```',
        '```\ncalculator(expression="17 * 23")\n```\n',
        'I will multiply the numbers.\ncalculator(expression="17 * 23")\nThe result will follow.',
        'calculator(expression="17 * 23")  # multiply them',
        '# first the product\ncalculator(expression="17 * 23")',
        'calculator(expression="17 * 23")\r\n',
        'calculator(\r\n    expression="17 * 23",\r\n)\r\n',
        'calculator(\n    expression="17 * 23",  # the product\n)',
        'calculator(expression="17 " "* 23")',
        'calculator(expression="""17 * 23""")',
        'calculator(expression=r"17 * 23")',
        '[calculator(expression="17 * 23")]',
        'calculator (expression="17 * 23")',
        'calculator(**{"expression": "17 * 23"})',
    ],
)
def test_one_call_is_read_through_the_mess_around_it(text: str) -> None:
    assert read(text) == [CALC]


@pytest.mark.parametrize(
    "text",
    [
        'calculator(expression="17 * 23")\nclock()',
        'calculator(expression="17 * 23")\n\nSecond, the time:\nclock()\n',
        '[calculator(expression="17 * 23"), clock()]',
        '[\n  calculator(expression="17 * 23"),\n  clock(),\n]',
        '[calculator(expression="17 * 23")\n, clock()]',
        '[  # the product, then the time\n  calculator(expression="17 * 23"),\n  clock(),\n]',
        'calculator(expression="17 * 23"); clock()',
        'calculator(expression="17 * 23"), clock()',
        '```python\ncalculator(expression="17 * 23")\n```\nand\n```python\nclock()\n```',
    ],
)
def test_several_calls_are_read_in_order(text: str) -> None:
    assert read(text) == [CALC, CLOCK]


def test_ids_number_the_calls_of_the_step() -> None:
    calls = CHAIN.parse('clock()\nclock()\ncalculator(expression="1")')
    assert [call.id for call in calls] == ["call_0", "call_1", "call_2"]


@pytest.mark.parametrize(
    "text", ["", "  \n\t\n", "[]", "[ ]", "[  # none [yet]\n]", "```python\n```", "# nothing"]
)
def test_no_calls_and_no_prose_is_an_empty_action(text: str) -> None:
    assert read(text) == []


def test_prose_without_any_call_is_an_error_quoting_it() -> None:
    with pytest.raises(PythonCallError) as caught:
        CHAIN.parse("I should use the calculator for this.")
    message = caught.value.model_message
    assert "No tool call found in the action section" in message
    assert "I should use the calculator" in message
    assert "tool_name(argument=value, ...)" in message


def test_literals_of_every_kind() -> None:
    text = (
        'plot(points=[{"x": 1, "y": -2.5}, (3, 4e2), []], '
        "title=None)\n"
        'search(query="a\\tb\\u00e9\\n", limit=-0, language="fr")\n'
        "t_any(a=True, b=False, c=None, d=true, e=false, f=null, g=0x10, h=1_000, i=.5)"
    )
    assert read(text) == [
        ("plot", {"points": [{"x": 1, "y": -2.5}, [3, 400.0], []], "title": None}),
        ("search", {"query": "a\tbé\n", "limit": 0, "language": "fr"}),
        (
            "t_any",
            {
                "a": True,
                "b": False,
                "c": None,
                "d": True,
                "e": False,
                "f": None,
                "g": 16,
                "h": 1000,
                "i": 0.5,
            },
        ),
    ]


def test_a_dict_key_given_twice_keeps_its_last_value_as_in_python() -> None:
    # The grammar cannot keep a free-form dict's keys apart, and every text it allows parses.
    assert read('t_x(a={"k": 1, "k": 2})') == [("t_x", {"a": {"k": 2}})]


def test_a_dashed_tool_name_and_a_keyword_named_tool_are_called_as_written() -> None:
    assert read('get-time(zone="UTC")\nif(x=1)') == [
        ("get-time", {"zone": "UTC"}),
        ("if", {"x": 1}),
    ]


def test_arguments_that_are_not_identifiers_come_through_a_literal_dict() -> None:
    text = 'write(**{"file-path": "a.txt", "if": 1}, mode="w", **{"été": 2})'
    assert read(text) == [("write", {"file-path": "a.txt", "if": 1, "mode": "w", "été": 2})]


# --------------------------------------------------------------------------- positional


def test_positional_arguments_follow_the_signature_order() -> None:
    # search(query: str, limit: int = 5, language: ... = "en"): required first, then optional.
    assert read('search("cats", 3, "fr")') == [
        ("search", {"query": "cats", "limit": 3, "language": "fr"})
    ]
    assert read('search("cats", language="fr")') == [
        ("search", {"query": "cats", "language": "fr"})
    ]
    assert read('calculator("6 * 7")') == [("calculator", {"expression": "6 * 7"})]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'search("cats", query="dogs")',
            "gives the argument query twice (by position and by name)",
        ),
        ('search("cats", 3, "fr", 4)', "has 4 positional arguments, but search takes 3"),
        ('clock("now")', "has 1 positional argument, but clock takes 0"),
        ('t_unknown("cats")', "t_unknown is not a tool, so its parameters are unknown"),
    ],
)
def test_positional_arguments_that_cannot_be_mapped_are_refused(text: str, expected: str) -> None:
    with pytest.raises(PythonCallError) as caught:
        CHAIN.parse(text)
    assert expected in caught.value.model_message
    advice = caught.value.model_message.lower()
    assert "name every argument: name=value." in advice or "give each argument once." in advice


def test_keyword_only_chains_refuse_positional_arguments() -> None:
    chain = PythonicToolChain(KIT_TOOLS, positional=False)
    with pytest.raises(PythonCallError) as caught:
        chain.parse('calculator("6 * 7")')
    assert "has a positional argument (at line 1, column 12)" in caught.value.model_message
    assert "Name every argument: name=value." in caught.value.model_message
    assert read('calculator(expression="6 * 7")', chain) == [
        ("calculator", {"expression": "6 * 7"})
    ]


# --------------------------------------------------------------------------- cut off


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ('calculator(expression="17 * 2', "a string is not closed"),
        ('calculator(expression="17 * 23"', "a closing ) is missing"),
        ("calculator(", "a closing ) is missing"),
        ('clock()\nsearch(query="cats", limit=[1, 2', "a closing ) is missing"),
        ('write_file(path="a", content="""line 1\nline', "a string is not closed"),
        ('calculator(expression="17 * 23\n', "a string is not closed"),
        ('[calculator(expression="17 * 23"), clock()', "the list of calls is not closed with ]"),
        ('calculator(expression="1",  # a comment', "a closing ) is missing"),
    ],
)
def test_a_cut_off_call_is_reported_never_returned(text: str, missing: str) -> None:
    with pytest.raises(TruncatedCallError) as caught:
        CHAIN.parse(text)
    assert missing in caught.value.model_message
    assert "write the complete call again" in caught.value.model_message


def test_errors_locate_the_problem_in_the_section_text() -> None:
    text = "clock()\n\ncalculator(\n    expression=17 * 23,\n)"
    with pytest.raises(PythonCallError) as caught:
        CHAIN.parse(text)
    error = caught.value
    assert (error.location.line, error.location.column) == (4, 16)
    assert error.location.section == "action"
    assert text[error.location.offset or 0 :].startswith("17 * 23")
    assert "call 2 (calculator) has an operator expression `17 * 23` at line 4, column 16" in str(
        error
    )


def test_columns_count_characters_not_bytes() -> None:
    with pytest.raises(PythonCallError) as caught:
        CHAIN.parse('search(query="été à Paris", limit=x)')
    assert caught.value.location.column == 35


def test_the_section_name_is_the_chains() -> None:
    chain = PythonicToolChain(KIT_TOOLS, section_name="tools")
    with pytest.raises(PythonCallError) as caught:
        chain.parse("no call here")
    assert "the tools section" in caught.value.model_message
    assert caught.value.location.section == "tools"

"""Hostile input: everything executable is refused with what was found, where, and what is
accepted; nothing is ever evaluated; pathological input is a parse error, never a crash."""

from __future__ import annotations

import builtins
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from gent_pythonic import PythonCallError, PythonicToolChain
from gent_pythonic.guard import SAFE_CODE_CHARS, first_excess_token

from gent_core.bounds import MAX_DEPTH, MAX_INT_DIGITS
from gent_core.errors import ParseError
from gent_core.testing import KIT_TOOLS
from gent_core.toolchain import ToolCall

CHAIN = PythonicToolChain(KIT_TOOLS)
ACCEPTED = "Values are literals only"
# Python 3.10 refuses deep expressions before parsing; later versions stop parsing them.
TOO_MANY = "holds more than 1000 operators, names or calls|too deeply to read"

# (argument source, what the message names, the advice it gives, where the location points)
FORBIDDEN = [
    ("x", "the name `x`", 'write text in quotes ("x")', "x"),
    ("os.system", "attribute access `os.system`", "Nothing is looked up", "os.system"),
    ('os.system("rm -rf /")', 'a call nested as an argument `os.system("rm -rf /")`', "", "os."),
    ('__import__("os")', "a call nested as an argument", "Nothing is evaluated", "__import__"),
    ("clock()", "a call nested as an argument `clock()`", "Call clock on a line of its own", "c"),
    ("17 * 23", "an operator expression `17 * 23`", 'write "17 * 23"', "17 * 23"),
    ('"a" + "b"', 'an operator expression `"a" + "b"`', "Nothing is evaluated", '"a" +'),
    ("+1", "an operator expression `+1`", "Only a minus sign before a number", "+1"),
    ("--1", "an operator expression `--1`", "Only a minus sign before a number", "--1"),
    ("-True", "an operator expression `-True`", "Only a minus sign before a number", "-True"),
    ("not True", "an operator expression `not True`", "Only a minus sign", "not"),
    ("~1", "an operator expression `~1`", "Only a minus sign", "~1"),
    ("1 < 2", "a comparison `1 < 2`", "Nothing is evaluated", "1 < 2"),
    ("True and False", "a boolean expression `True and False`", "Nothing is evaluated", "True"),
    ("[x for x in range(3)]", "a comprehension `[x for x in range(3)]`", "write the value", "[x"),
    ("{x: 1 for x in y}", "a comprehension", "write the value", "{x:"),
    ("{x for x in y}", "a comprehension", "write the value", "{x for"),
    ("(x for x in y)", "a generator expression", "write the value", "(x for"),
    ("lambda: 1", "a lambda `lambda: 1`", "write the value", "lambda"),
    ('f"{x}"', 'an f-string `f"{x}"`', "Write a plain string", 'f"'),
    ("x[0]", "an index or slice `x[0]`", "write the value", "x[0]"),
    ("[1, 2][0]", "an index or slice", "write the value", "[1, 2][0]"),
    ("1 if x else 2", "a conditional expression", "write the value", "1 if"),
    ("(y := 1)", "an assignment expression", "write the value", "y :="),
    ("{1, 2}", "a set `{1, 2}`", "Write a list", "{1, 2}"),
    ('b"data"', 'a bytes literal `b"data"`', "Write a string", 'b"data"'),
    ("1j", "a complex number `1j`", "Write an int or a float", "1j"),
    ("...", "a placeholder `...`", "leave the argument out", "..."),
    ("[*items]", "a starred item `*items`", "Write the items one by one", "*items"),
    ("{**base}", "`**` unpacking inside a dict `base`", "Write the keys one by one", "base"),
    ("{1: 2}", "a dict key that is not a string `1`", "Write keys in quotes", "1: 2"),
    ("{True: 2}", "a dict key that is not a string `True`", "Write keys in quotes", "True"),
    ("[1, [2, x]]", "the name `x`", "write text in quotes", "x]]"),
    ('{"k": os.environ}', "attribute access `os.environ`", "Nothing is looked up", "os.env"),
]


@pytest.mark.parametrize(
    ("source", "what", "advice", "at"), FORBIDDEN, ids=[case[0] for case in FORBIDDEN]
)
def test_each_forbidden_argument_is_refused_saying_what_where_and_what_is_accepted(
    source: str, what: str, advice: str, at: str
) -> None:
    text = f'calculator(expression="1")\nsearch(query={source})'
    with pytest.raises(PythonCallError) as caught:
        CHAIN.parse(text)
    error = caught.value
    message = error.model_message
    assert message.startswith(f"Call 2 (search) has {what}"), message
    assert advice in message
    assert ACCEPTED in message
    assert error.location.line == 2 and error.location.offset is not None
    assert text[error.location.offset :].startswith(at)
    assert f"(at line 2, column {error.location.column})" in message


@pytest.mark.parametrize(
    ("text", "what", "advice"),
    [
        ("search(*queries)", "a starred argument `*queries`", "Write each argument with its name"),
        ("search(**options)", "`**` unpacking of `options`", "Only a literal dict can be unpacked"),
        ("search(**dict(query=1))", "`**` unpacking of `dict(query=1)`", "Only a literal dict"),
        ('search(**{"query": x})', "the name `x`", "write text in quotes"),
        (
            'search(query="a", query="b")',
            "gives the argument query twice",
            "Give each argument once",
        ),
        ('search(**{"query": "a"}, query="b")', "gives the argument query twice", "once"),
        ('print(calculator(expression="1"))', "a call nested as an argument", "its own"),
        ('search(query="x")(1)', "`(1)` after a call on the same line", "its own line"),
        ('search(query="x").result', "`.result` after a call on the same line", "its own line"),
        ('search(query="x") + 1', "`+ 1` after a call on the same line", "its own line"),
        ('search(query="x") clock()', "a second call on the same line", "its own line"),
        ('result = search(query="x")', "a call of search after other text", "no assignment"),
        ('await search(query="x")', "a call of search after other text", "await"),
        ('Call: search(query="x")', "a call of search after other text", "its own line"),
        ('[search(query="x"), 42]', "`42]` inside the list of calls", "holds only calls"),
        ('[search(query="x"), [clock()]]', "`[clock()]]` inside the list of calls", "only calls"),
        ('search(query="x"]', "a `]` where `)` was expected", ""),
        ('search(query="x\n")', "a string that is not closed on its line", r"as \n"),
        ("search(query=1 2)", "is not valid Python: invalid syntax", ""),
        ('search(query="x", 1)', "positional argument follows keyword argument", ""),
        ('search(query="\x00")', "holds a NUL character", ""),
        ('search(query="\ud800")', "cannot be read", ""),
    ],
)
def test_executable_or_broken_calls_are_refused(text: str, what: str, advice: str) -> None:
    with pytest.raises(PythonCallError) as caught:
        CHAIN.parse(text)
    message = caught.value.model_message
    assert what.lower() in message.lower(), message
    assert advice in message
    assert ACCEPTED in message
    assert caught.value.location.line is not None


@pytest.mark.parametrize(
    ("text", "name", "args"),
    [
        ('os.system("rm -rf /")', "os.system", {}),
        ('builtins.eval(source="1")', "builtins.eval", {"source": "1"}),
    ],
)
def test_a_dotted_name_is_a_tool_name_never_an_attribute(
    text: str, name: str, args: dict[str, Any]
) -> None:
    """Tool names may hold dots (``math.factorial``): a dotted call is a call of the tool of
    that name, looked up among the tools like any other (an unknown one is an unknown tool when
    it runs), never an attribute of anything. A positional argument to it is refused, as to
    any name that is not a tool.
    """
    if args:
        (call,) = CHAIN.parse(text)
        assert (call.tool, call.args) == (name, args)
    else:
        with pytest.raises(PythonCallError, match=f"{name} is not a tool"):
            CHAIN.parse(text)


def test_nothing_is_ever_evaluated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "pwned"
    calls: list[str] = []

    def spy(name: str) -> Any:
        original = getattr(builtins, name)

        def watched(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return original(*args, **kwargs)

        return watched

    for name in ("eval", "exec", "__import__"):
        monkeypatch.setattr(builtins, name, spy(name))
    attacks = [
        f'search(query=__import__("pathlib").Path({str(marker)!r}).touch())',
        f'search(query=open({str(marker)!r}, "w"))',
        f'search(query=(lambda: open({str(marker)!r}, "w"))())',
        f'search(query=[open({str(marker)!r}, "w") for _ in [1]])',
        f"search(query=f\"{{open({str(marker)!r}, 'w')}}\")",
        f'search(**{{"query": open({str(marker)!r}, "w")}})',
    ]
    for attack in attacks:
        with pytest.raises(PythonCallError):
            CHAIN.parse(attack)
    monkeypatch.undo()
    assert not marker.exists()
    assert calls == []


# --------------------------------------------------------------------------- pathological


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("search(query=" + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + ")", "nested more than"),
        ("search(query=" + "(" * 5000 + "1" + ")" * 5000 + ")", "nested more than"),
        # Deep expressions without brackets: never a crash (Python 3.10's parser could crash
        # on large ones, which are refused before parsing there)...
        ("search(query=" + "-" * 100_000 + "1)", TOO_MANY),
        ("search(query=" + "1+" * 100_000 + "1)", TOO_MANY),
        ("search(query=" + "a." * 100_000 + "b)", TOO_MANY),
        ("search(query=x" + "()" * 50_000 + ")", TOO_MANY),
        ("search(query=x" + "[0]" * 50_000 + ")", TOO_MANY),
        ("search(query=" + "not " * 50_000 + "1)", TOO_MANY),
        ("search(query=" + "1 if 1 else " * 20_000 + "1)", TOO_MANY),
        ("search(query=" + "lambda a, b=" * 20_000 + "1" + ": 1" * 20_000 + ")", TOO_MANY),
        # ...smaller ones are parsed: Python 3.10 reads them (then they are refused), later
        # versions stop with a RecursionError or MemoryError (also refused)
        ("search(query=" + "-" * 9000 + "1)", "too deeply to read|an operator expression"),
        ("search(query=" + "1+" * 4900 + "1)", "too deeply to read|an operator expression"),
        ("search(query=" + "[" * MAX_DEPTH + "]" * MAX_DEPTH + ")", "nests more than 100 levels"),
        ("search(query=" + "9" * (MAX_INT_DIGITS + 1) + ")", "an integer of more than 4300"),
        ("search(query=0x" + "f" * 4000 + ")", "args.query is an integer of about 4817 digits"),
        ("search(query=1e999)", "args.query is Infinity"),
        ("search(query=-1e999)", "args.query is -Infinity"),
        ("search(query=[" + "1," * 100_001 + "])", "more than 100000 values"),
    ],
)
def test_pathological_input_is_a_parse_error_not_a_crash(text: str, what: str) -> None:
    limit = sys.getrecursionlimit()
    with pytest.raises(PythonCallError) as caught:
        CHAIN.parse(text)
    assert re.search(what, caught.value.model_message)
    assert sys.getrecursionlimit() == limit


def test_exactly_at_the_bounds_is_accepted() -> None:
    # The arguments object is level 1, so a value may hold MAX_DEPTH - 1 nested lists.
    depth = MAX_DEPTH - 1
    nested = CHAIN.parse("search(query=" + "[" * depth + "]" * depth + ")")[0].args["query"]
    for _ in range(depth - 1):
        nested = nested[0]
    assert nested == []
    big = int("9" * MAX_INT_DIGITS)
    assert CHAIN.parse(f"search(limit={big})")[0].args == {"limit": big}


def test_a_large_literal_call_is_read() -> None:
    points = [{"x": -index - 0.5, "y": -index} for index in range(5000)]
    written = CHAIN.format_calls([ToolCall("plot", {"points": points, "title": None})])
    assert len(written) > 10 * SAFE_CODE_CHARS
    assert CHAIN.parse(written)[0].args["points"] == points


def test_the_size_bound_is_an_option() -> None:
    chain = PythonicToolChain(KIT_TOOLS, max_chars=100)
    assert chain.parse('calculator(expression="1")')
    with pytest.raises(PythonCallError, match="at most 100 are read"):
        chain.parse(f'calculator(expression="{"1" * 100}")')


def test_every_error_is_a_documented_parse_error() -> None:
    for text in ["search(query=x)", "search(query=", "prose only", "search(query=1e999)"]:
        with pytest.raises(ParseError):
            CHAIN.parse(text)


@pytest.mark.parametrize(
    "source",
    [
        '_(a=1, b=-2.5e-3, c=[True, None, null, {"k": -1}], **{"if": 1}, d=(1, -2))',
        '_("x", -3, true, [false], "a" "b")',
        '___(\n    a=1,  # a comment\n    b="""two\nlines""",\n)',
    ],
)
def test_the_depth_guard_counts_nothing_in_literal_calls(source: str) -> None:
    assert first_excess_token(source, limit=0) is None


@pytest.mark.parametrize(
    ("source", "column"),
    [
        ("_(a=1+1)", 5),
        ("_(a=x)", 4),
        ("_(a=--1)", 4),
        ("_(a=[1][0])", 7),
        ("_(*a)", 2),
        ("_(a=lambda: 1)", 4),
        ("_(**a)", 4),
    ],
)
def test_the_depth_guard_counts_what_literals_do_not_need(source: str, column: int) -> None:
    assert first_excess_token(source, limit=0) == (1, column)

"""``parse(format_calls(calls))`` gives back exactly the calls, for generated arguments of every
kind (types kept: ``1`` stays an int, ``1.0`` a float, ``True`` a bool, ``-0.0`` its sign), any
argument name, known and unknown tools, and however the calls are wrapped."""

from __future__ import annotations

import math
from typing import Any

import pytest
from gent_pythonic import PythonicToolChain
from gent_pythonic.guard import first_excess_token
from hypothesis import given
from hypothesis import strategies as st

from gent_core.bounds import MAX_INT_DIGITS
from gent_core.testing import KIT_TOOLS, profile_examples
from gent_core.toolchain import ToolCall

CHAIN = PythonicToolChain(KIT_TOOLS)

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(10 ** (MAX_INT_DIGITS - 1), 10**MAX_INT_DIGITS - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()  # every code point, lone surrogates and control characters included
)
VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
NAMES = (
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)
    | st.sampled_from(["if", "None", "True", "class", "match", "type", "_", "file-path", "é"])
    | st.text(max_size=8)
)
TOOL_NAMES = st.sampled_from([tool.name for tool in KIT_TOOLS]) | st.from_regex(
    r"[A-Za-z_][A-Za-z0-9_-]{0,20}", fullmatch=True
)
CALLS = st.lists(
    st.builds(ToolCall, TOOL_NAMES, st.dictionaries(NAMES, VALUES, max_size=5)), max_size=4
)


def typed(value: Any) -> Any:
    """A form in which equal means the same type and value (``1 != 1.0 != True``)."""
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, (list, tuple)):
        return ("list", [typed(item) for item in value])
    if isinstance(value, dict):
        return ("dict", [(key, typed(item)) for key, item in sorted(value.items())])
    return (type(value).__name__, value)


def same(calls: list[ToolCall], read: list[ToolCall]) -> bool:
    return [(c.tool, typed(c.args)) for c in calls] == [(c.tool, typed(c.args)) for c in read]


@profile_examples(200)
@given(calls=CALLS)
def test_written_calls_read_back_exactly(calls: list[ToolCall]) -> None:
    written = CHAIN.format_calls(calls)
    assert same(calls, CHAIN.parse(written)), written


@profile_examples(150)
@given(calls=CALLS.filter(bool), wrapper=st.sampled_from(["fence", "prose", "crlf", "list"]))
def test_written_calls_read_back_however_they_are_wrapped(
    calls: list[ToolCall], wrapper: str
) -> None:
    written = CHAIN.format_calls(calls)
    if wrapper == "fence":
        text = f"```python\n{written}\n```"
    elif wrapper == "prose":
        text = f"Let me do this.\n\n{written}\n\nThat should be all."
    elif wrapper == "crlf":
        text = written.replace("\n", "\r\n") + "\r\n"
    else:
        text = "[" + ",\n ".join(written.split("\n")) + "]"
    assert same(calls, CHAIN.parse(text)), text


@profile_examples(150)
@given(calls=CALLS.filter(bool))
def test_every_call_is_written_on_one_line(calls: list[ToolCall]) -> None:
    assert len(CHAIN.format_calls(calls).split("\n")) == len(calls)


@profile_examples(150)
@given(call=st.builds(ToolCall, TOOL_NAMES, st.dictionaries(NAMES, VALUES, max_size=5)))
def test_no_written_call_holds_a_token_literals_do_not_need(call: ToolCall) -> None:
    """The depth guard never counts anything in a literal call, whatever its size."""
    written = CHAIN.format_calls([call])
    source = "_" * len(call.tool) + written[len(call.tool) :]
    assert first_excess_token(source, limit=0) is None, written


def test_arguments_of_a_known_tool_are_written_in_signature_order() -> None:
    call = ToolCall("search", {"language": "fr", "extra": 1, "query": "cats"})
    assert CHAIN.format_calls([call]) == 'search(query="cats", language="fr", extra=1)'


def test_values_are_written_as_python_literals() -> None:
    call = ToolCall(
        "t_x",
        {"a": True, "b": None, "c": [1, 2.5, -0.0], "d": {"k": 'v\n"q"'}, "e": (1,), "if": 1},
    )
    assert CHAIN.format_calls([call]) == (
        't_x(a=True, b=None, c=[1, 2.5, -0.0], d={"k": "v\\n\\"q\\""}, e=[1], **{"if": 1})'
    )


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        (ToolCall("t_x", {"a": math.nan}), "args.a is NaN"),
        (ToolCall("t_x", {"a": math.inf}), "args.a is Infinity"),
        (ToolCall("t_x", {"a": {1, 2}}), "a set cannot be written"),
        (ToolCall("t_x", {"a": {1: 2}}), "dict keys must be strings"),
        (ToolCall("t_x", {"a": object()}), "a object cannot be written"),
        (ToolCall("bad name", {}), "cannot be written as a call"),
        (ToolCall("t_x", {"a": 10**MAX_INT_DIGITS}), "args.a is an integer of about 4301 digits"),
    ],
)
def test_calls_that_cannot_be_written_raise_value_error(call: ToolCall, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        CHAIN.format_calls([call])

"""BFCL's decoder of Python-syntax calls, re-implemented without eval (the slow agreement test
compares it with BFCL's own on every task)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gent_bfcl import DecodeError, decode_calls, write_calls
from gent_bfcl.pycalls import UNPACKED

# Read as BFCL reads them (the slow agreement test runs BFCL's decoder on both tables).
DECODED: list[tuple[str, list[dict[str, Any]]]] = [
    ("[math.factorial(number=5)]", [{"math.factorial": {"number": 5}}]),
    ("math.factorial(number=5)", [{"math.factorial": {"number": 5}}]),
    ("```\n[f(a=1), g(b='x')]\n```", [{"f": {"a": 1}}, {"g": {"b": "x"}}]),
    ("  [f()]\n", [{"f": {}}]),
    ("[]", []),
    (
        "[a.b.c(x=[1, 2.5, 'z'], y={'k': (1, 2)})]",
        [{"a.b.c": {"x": [1, 2.5, "z"], "y": {"k": (1, 2)}}}],
    ),
    ("[f(a=None, b=True, c=...)]", [{"f": {"a": None, "b": True, "c": "..."}}]),
    ("[f(a=-3, b=+5, c=not 1)]", [{"f": {"a": -3, "b": -5, "c": -1}}]),  # BFCL's unary rule
    (
        "[f(a=2 * 3 + 1, b=2 ** 10, c=7 / 2, d='a' + 'b')]",
        [{"f": {"a": 7, "b": 1024, "c": 3.5, "d": "ab"}}],
    ),
    ("[f(a=-(1 + 2) * 3)]", [{"f": {"a": -9}}]),
    (
        "[f(a=some_name, b=x[0], c=g(1), d=g(k=1))]",
        [{"f": {"a": "some_name", "b": "x[0]", "c": "g(1)", "d": {"g": {"k": 1}}}}],
    ),
    ("[f(1, 2, a=3)]", [{"f": {"a": 3}}]),  # positional arguments are dropped
    ("[f(**kw)]", [{"f": {UNPACKED: "kw"}}]),
]

UNREADABLE = [
    "I cannot answer that.",
    "```python\n[f(a=1)]\n```",  # BFCL strips the backticks but not the word python
    "[f(a=1)] because it fits",
    "[1, 2]",
    "[f(a=]",
    "[f(a=math.pi)]",
    "[f(a=lambda: 1)]",
    "[f(a={1, 2})]",
    "[f(a=f'{x}')]",
    "[f(a=-x)]",
    "[f(a=x + 1)]",
    "[f(a=1 / 0)]",
    "[f(a={**d})]",
    "[" * 500 + "]" * 500,
]

# What BFCL's eval() computes but gent refuses: values too large to be answers (not compared
# with BFCL).
TOO_LARGE = ["[f(a=2 ** 999999)]", "[f(a='x' * 10 ** 6)]", "[f(a=1 << 10 ** 6)]"]


@pytest.mark.parametrize(("text", "calls"), DECODED)
def test_decodes_as_bfcl(text: str, calls: list[dict[str, Any]]) -> None:
    assert decode_calls(text) == calls


@pytest.mark.parametrize("text", UNREADABLE + TOO_LARGE)
def test_unreadable_or_too_large_is_a_decode_error(text: str) -> None:
    with pytest.raises(DecodeError):
        decode_calls(text)


def test_model_output_is_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = f"[f(a=1 + __import__('pathlib').Path({str(marker)!r}).touch())]"
    with pytest.raises(DecodeError, match="only constants and operators"):
        decode_calls(text)
    assert not marker.exists()


def test_write_calls_is_read_back() -> None:
    calls: list[dict[str, dict[str, Any]]] = [
        {"math.factorial": {"number": 5}},
        {"g": {"s": 'it\'s "quoted"', "xs": [1.5, None], "d": {"k": True}, "t": (1, 2)}},
    ]
    text = write_calls(calls)
    assert text.startswith("[math.factorial(number=5), g(s=")
    assert decode_calls(text) == calls
    assert write_calls([]) == "[]"

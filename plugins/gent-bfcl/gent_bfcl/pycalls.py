"""BFCL's decoder of Python-syntax calls (``[func(a=1), mod.g(b='x')]``), and its inverse.

Re-implemented from bfcl-eval's ``default_decode_ast_prompting`` and the ``ast_parse``,
``resolve_ast_call`` and ``resolve_ast_by_type`` it uses (``bfcl_eval/model_handler/utils.py``,
Apache-2.0; see NOTICE), which is how BFCL reads a prompted model's output:

1. strip backticks, line ends and spaces from both ends; add a ``[`` in front and a ``]`` at
   the end when missing; strip spaces, then single quotes;
2. parse it as one Python expression: a call, or a list (tuple, set) of calls;
3. each call becomes ``{name: {keyword: value}}``: the name joins the attribute path
   (``a.b.c``), positional arguments are dropped, ``**x`` is an argument named
   :data:`UNPACKED`; a value is read from its syntax: constants
   as they are, ``-x`` and every other unary operator on a constant as its negation (BFCL's
   rule: ``+5`` reads as ``-5``), lists, tuples and dictionaries item by item, a bare name as
   its text, a call without keywords as its source text and one with keywords as a nested
   call, ``x[i]`` as its source text, an arithmetic expression as its value.

One difference: BFCL computes an arithmetic expression with ``eval()``, which would run
anything a model writes. Here only constants, displays and operators are computed, within
bounds (no power, repetition or shift making a value of more than about 100,000 bits or
items); anything else (a call, a name, a comparison inside the expression) is a decoding
failure, as are the values ``eval`` would refuse. Every failure is a :class:`DecodeError`,
never another exception.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["UNPACKED", "DecodeError", "decode_calls", "write_calls"]

UNPACKED = "**"
"""The argument name a ``**mapping`` argument is read under (BFCL reads it under ``None``; no
parameter has either name, so the checker judges both alike)."""

_MAX_SIZE = 100_000
"""The largest value (in bits for integers, in items for sequences) arithmetic may make."""


class DecodeError(ValueError):
    """Output that BFCL's decoder does not read as calls (the message says why)."""


_BINARY: Mapping[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
    ast.BitAnd: operator.and_,
}
_UNARY: Mapping[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Not: operator.not_,
    ast.Invert: operator.invert,
}


def _bounded(op: type[ast.operator], left: Any, right: Any) -> None:
    """Refuse arithmetic whose result would be huge (``eval`` would try, and hang)."""
    too_large = DecodeError("an arithmetic value is too large")
    if op is ast.Pow and isinstance(left, int) and isinstance(right, int) and abs(left) > 1:
        if right > 0 and right * math.log2(abs(left)) > _MAX_SIZE:
            raise too_large
    elif op is ast.LShift and isinstance(right, int) and right > _MAX_SIZE:
        raise too_large
    elif op is ast.Mult:
        for sequence, count in ((left, right), (right, left)):
            sized = isinstance(sequence, str | bytes | list | tuple) and isinstance(count, int)
            if sized and len(sequence) * count > _MAX_SIZE:
                raise too_large


def _key(node: ast.expr | None) -> ast.expr:
    """A dictionary display's key (``None`` stands for a ``**mapping`` entry, unreadable)."""
    if node is None:
        raise DecodeError("a '**' inside a dictionary cannot be read")
    return node


def _compute(node: ast.expr) -> Any:
    """The value of an arithmetic expression (what BFCL's ``eval`` gives, within bounds)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _compute(node.left), _compute(node.right)
        _bounded(type(node.op), left, right)
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp):
        return _UNARY[type(node.op)](_compute(node.operand))
    if isinstance(node, ast.List):
        return [_compute(item) for item in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(_compute(item) for item in node.elts)
    if isinstance(node, ast.Dict):
        return {_compute(_key(k)): _compute(v) for k, v in zip(node.keys, node.values, strict=True)}
    raise DecodeError(f"cannot compute {ast.unparse(node)!r} (only constants and operators)")


def _value(node: ast.expr) -> Any:
    """A keyword argument's value, read as BFCL's ``resolve_ast_by_type`` reads it."""
    if isinstance(node, ast.Constant):
        return "..." if node.value is Ellipsis else node.value
    if isinstance(node, ast.UnaryOp):
        operand = node.operand
        if isinstance(operand, ast.Constant) and isinstance(operand.value, int | float | complex):
            return -operand.value
        raise DecodeError(f"cannot read {ast.unparse(node)!r}")
    if isinstance(node, ast.List):
        return [_value(item) for item in node.elts]
    if isinstance(node, ast.Dict):
        return {_value(_key(k)): _value(v) for k, v in zip(node.keys, node.values, strict=True)}
    if isinstance(node, ast.BinOp):
        return _compute(node)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return _call(node) if node.keywords else ast.unparse(node)
    if isinstance(node, ast.Tuple):
        return tuple(_value(item) for item in node.elts)
    if isinstance(node, ast.Subscript):
        return f"{ast.unparse(node.value)}[{ast.unparse(node.slice)}]"
    raise DecodeError(f"unsupported syntax {type(node).__name__}: {ast.unparse(node)!r}")


def _call(node: ast.Call) -> dict[str, dict[str, Any]]:
    parts: list[str] = []
    func = node.func
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(func.id)
    arguments: dict[str, Any] = {}
    for keyword in node.keywords:
        arguments[keyword.arg or UNPACKED] = _value(keyword.value)
    return {".".join(reversed(parts)): arguments}


def decode_calls(text: str) -> list[dict[str, dict[str, Any]]]:
    """The calls in a model's output, read as BFCL reads them (see the module docstring).

    Raises:
        DecodeError: When the output is not one call or a list of calls, or holds syntax BFCL
            cannot read.
    """
    result = text.strip("`\n ")
    if not result.startswith("["):
        result = "[" + result
    if not result.endswith("]"):
        result = result + "]"
    try:
        tree = ast.parse(result.strip().strip("'"), mode="eval")
        body = tree.body
        if isinstance(body, ast.Call):
            return [_call(body)]
        if not isinstance(body, ast.List | ast.Tuple | ast.Set):
            raise DecodeError(f"not a list of calls: {type(body).__name__}")
        calls = []
        for element in body.elts:
            if not isinstance(element, ast.Call):
                raise DecodeError(f"not a call: {ast.unparse(element)!r}")
            calls.append(_call(element))
        return calls
    except DecodeError:
        raise
    except (SyntaxError, ValueError, TypeError, ArithmeticError, RecursionError, MemoryError) as e:
        raise DecodeError(f"{type(e).__name__}: {e}") from None


def write_calls(calls: Sequence[Mapping[str, Mapping[str, Any]]]) -> str:
    """``calls`` written as a prompted model should write them: ``[f(a=1), g(b='x')]``
    (values as Python literals); :func:`decode_calls` reads it back.
    """
    written = []
    for call in calls:
        for name, arguments in call.items():
            args = ", ".join(f"{key}={value!r}" for key, value in arguments.items())
            written.append(f"{name}({args})")
    return "[" + ", ".join(written) + "]"

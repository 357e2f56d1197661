"""Safe evaluation of arithmetic expressions on their syntax tree.

:func:`evaluate` parses the expression with :func:`ast.parse` (``mode="eval"``) and walks the
tree itself; nothing is ever compiled or executed. Accepted: numbers, ``+ - * / // % **``,
unary ``+``/``-``, parentheses, the functions in :data:`FUNCTIONS` and the constants in
:data:`CONSTANTS`. Everything else (other names, attribute access, calls of anything else,
indexing, strings, comparisons, comprehensions...) is refused with a message saying what is
accepted.

Work is bounded: the expression's length is limited, the tree is walked with an explicit
stack (no recursion limit to hit), and every operation whose result could be huge is checked
*before* it is computed: ``9**9**9`` is refused at once instead of running for hours.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "ACCEPTED",
    "CONSTANTS",
    "FUNCTIONS",
    "MAX_EXPRESSION_LENGTH",
    "MAX_INTEGER_DIGITS",
    "ArithmeticProblem",
    "evaluate",
]

Number = int | float

MAX_EXPRESSION_LENGTH = 1000
"""Longest expression accepted, in characters."""

MAX_INTEGER_DIGITS = 3000
"""Largest integer result accepted, in decimal digits."""

_INTEGER_LIMIT = 10**MAX_INTEGER_DIGITS  # the smallest integer with one digit too many
# Bits of the largest accepted integer, rounded up: the cheap checks made *before* computing
# allow up to this, and the exact check on the result (against _INTEGER_LIMIT) decides.
_MAX_INTEGER_BITS = int(MAX_INTEGER_DIGITS * math.log2(10)) + 1
_MAX_ROUND_DIGITS = 100


@dataclass(frozen=True)
class _Function:
    implementation: Callable[..., Number]
    min_args: int
    max_args: int | None


def _round(value: Number, digits: Number | None = None) -> Number:
    if digits is None:
        return round(value)
    if not isinstance(digits, int) or abs(digits) > _MAX_ROUND_DIGITS:
        raise ArithmeticProblem(
            f"round() takes a whole number of digits between -{_MAX_ROUND_DIGITS} and "
            f"{_MAX_ROUND_DIGITS}"
        )
    return round(value, digits)


FUNCTIONS: dict[str, _Function] = {
    "sqrt": _Function(math.sqrt, 1, 1),
    "abs": _Function(abs, 1, 1),
    "round": _Function(_round, 1, 2),
    "floor": _Function(math.floor, 1, 1),
    "ceil": _Function(math.ceil, 1, 1),
    "log": _Function(math.log, 1, 2),
    "exp": _Function(math.exp, 1, 1),
    "sin": _Function(math.sin, 1, 1),
    "cos": _Function(math.cos, 1, 1),
    "tan": _Function(math.tan, 1, 1),
    "min": _Function(lambda *values: min(values), 1, None),
    "max": _Function(lambda *values: max(values), 1, None),
}
"""The functions an expression may call, with how many arguments each takes."""

CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e}
"""The names an expression may use."""

ACCEPTED = (
    "numbers, + - * / // % ** (power), unary + and -, parentheses, the functions "
    + ", ".join(FUNCTIONS)
    + " and the constants "
    + " and ".join(CONSTANTS)
)
"""What an expression may contain, for error messages."""

_BINARY: dict[type[ast.operator], Callable[[Number, Number], Number]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_SYMBOLS: dict[type[ast.AST], str] = {
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.BitXor: "^",
    ast.MatMult: "@",
    ast.Invert: "~",
    ast.Not: "not",
}
_REFUSED: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access (a.b)",
    ast.Subscript: "indexing (a[b])",
    ast.Compare: "comparisons",
    ast.BoolOp: "and/or",
    ast.IfExp: "conditional expressions",
    ast.Lambda: "lambda",
    ast.NamedExpr: "assignment (:=)",
    ast.JoinedStr: "strings",
    ast.List: "lists",
    ast.Tuple: "tuples (a, b)",
    ast.Dict: "dicts",
    ast.Set: "sets",
    ast.ListComp: "comprehensions",
    ast.SetComp: "comprehensions",
    ast.DictComp: "comprehensions",
    ast.GeneratorExp: "comprehensions",
    ast.Starred: "unpacking (*a)",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
}


class ArithmeticProblem(ValueError):
    """An expression that cannot be evaluated: what was wrong, in words for the model.

    Attributes:
        syntax: Whether the expression itself is not accepted (as opposed to a valid
            expression whose value cannot be computed, like ``1/0``).
    """

    def __init__(self, message: str, *, syntax: bool = False) -> None:
        super().__init__(message)
        self.syntax = syntax


def _describe(value: Number) -> str:
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a {len(str(abs(value)))}-digit number"
    return repr(value)


def _check_result(value: object) -> Number:
    if isinstance(value, complex):
        raise ArithmeticProblem("the result is not a real number")
    if isinstance(value, float) and not math.isfinite(value):
        raise ArithmeticProblem("the result is too large (overflow)")
    if isinstance(value, int) and not -_INTEGER_LIMIT < value < _INTEGER_LIMIT:
        raise ArithmeticProblem(f"the result has more than {MAX_INTEGER_DIGITS} digits")
    assert isinstance(value, int | float)
    return value


def _check_size(kind: type[ast.operator], left: Number, right: Number) -> None:
    """Refuse an operation whose exact integer result would exceed the size limit."""
    if not (isinstance(left, int) and isinstance(right, int)):
        return  # float results overflow to an error by themselves
    if kind is ast.Pow and right > 0 and abs(left) > 1:
        # |left| >= 2, so the result has at least ``right`` bits: compare before any float
        # conversion (``right`` may itself be too large for a float).
        if right > _MAX_INTEGER_BITS or right * math.log2(abs(left)) > _MAX_INTEGER_BITS:
            log_digits = math.log10(right) + math.log10(math.log10(abs(left)))
            about = f"{10**log_digits:,.0f}" if log_digits < 9 else f"1e{log_digits:.0f}"
            base = f"({left})" if -(2**63) < left < 0 else _describe(left)
            raise ArithmeticProblem(
                f"{base} ** {_describe(right)} would have about {about} digits; "
                f"the limit is {MAX_INTEGER_DIGITS}"
            )
    elif kind is ast.Mult and left.bit_length() + right.bit_length() > _MAX_INTEGER_BITS + 1:
        raise ArithmeticProblem(f"the result has more than {MAX_INTEGER_DIGITS} digits")


def _binary(node: ast.BinOp, left: Number, right: Number) -> Number:
    kind = type(node.op)
    _check_size(kind, left, right)
    try:
        return _check_result(_BINARY[kind](left, right))
    except ZeroDivisionError:
        raise ArithmeticProblem("division by zero") from None
    except OverflowError:
        raise ArithmeticProblem("the result is too large (overflow)") from None


def _call(node: ast.Call, args: list[Number]) -> Number:
    assert isinstance(node.func, ast.Name)
    name = node.func.id
    try:
        return _check_result(FUNCTIONS[name].implementation(*args))
    except ArithmeticProblem:
        raise
    except ZeroDivisionError:
        raise ArithmeticProblem(f"division by zero in {name}()") from None
    except OverflowError:
        raise ArithmeticProblem(f"the result of {name}() is too large (overflow)") from None
    except ValueError:
        shown = ", ".join(_describe(arg) for arg in args)
        raise ArithmeticProblem(f"{name}({shown}) is not defined (math domain error)") from None


def _check_node(node: ast.AST) -> list[ast.expr]:
    """Refuse anything but the accepted nodes; return the node's operands."""
    if isinstance(node, ast.Expression):
        return [node.body]
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ArithmeticProblem(f"{value!r} is not a number", syntax=True)
        return []
    if isinstance(node, ast.Name):
        if node.id in FUNCTIONS:
            raise ArithmeticProblem(
                f"{node.id} is a function: call it, as in {node.id}(2)", syntax=True
            )
        if node.id not in CONSTANTS:
            raise ArithmeticProblem(f"unknown name {node.id!r}", syntax=True)
        return []
    if isinstance(node, ast.BinOp):
        if type(node.op) not in _BINARY:
            symbol = _SYMBOLS.get(type(node.op), type(node.op).__name__)
            raise ArithmeticProblem(f"the operator {symbol} is not allowed", syntax=True)
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, ast.UAdd | ast.USub):
            symbol = _SYMBOLS.get(type(node.op), type(node.op).__name__)
            raise ArithmeticProblem(f"the operator {symbol} is not allowed", syntax=True)
        return [node.operand]
    if isinstance(node, ast.Call):
        return _check_call(node)
    what = _REFUSED.get(type(node), type(node).__name__)
    raise ArithmeticProblem(f"not allowed: {what}", syntax=True)


def _check_call(node: ast.Call) -> list[ast.expr]:
    if not isinstance(node.func, ast.Name):
        what = _REFUSED.get(type(node.func), "calling the result of an expression")
        raise ArithmeticProblem(f"not allowed: {what}", syntax=True)
    if node.func.id not in FUNCTIONS:
        raise ArithmeticProblem(f"unknown function {node.func.id!r}", syntax=True)
    if node.keywords:
        raise ArithmeticProblem("keyword arguments are not allowed", syntax=True)
    function = FUNCTIONS[node.func.id]
    count = len(node.args)
    if count < function.min_args or (function.max_args is not None and count > function.max_args):
        expected = (
            f"{function.min_args} or more"
            if function.max_args is None
            else f"{function.min_args}"
            if function.min_args == function.max_args
            else f"{function.min_args} or {function.max_args}"
        )
        raise ArithmeticProblem(
            f"{node.func.id}() takes {expected} arguments, got {count}", syntax=True
        )
    return list(node.args)


def evaluate(expression: str) -> Number:
    """Evaluate an arithmetic ``expression`` safely.

    Args:
        expression: For example ``"(2 + 3) * sqrt(16) / 7"``.

    Returns:
        The value: an ``int`` when every step is exact integer arithmetic, else a ``float``.

    Raises:
        ArithmeticProblem: The expression is not accepted (``syntax`` is true) or its value
            cannot be computed (division by zero, a result too large...).
    """
    if len(expression) > MAX_EXPRESSION_LENGTH:
        raise ArithmeticProblem(
            f"the expression is {len(expression)} characters long; the limit is "
            f"{MAX_EXPRESSION_LENGTH}",
            syntax=True,
        )
    if not expression.strip():
        raise ArithmeticProblem("the expression is empty", syntax=True)
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        detail = getattr(error, "msg", None) or "it is not an arithmetic expression"
        raise ArithmeticProblem(f"invalid syntax ({detail})", syntax=True) from None
    # Post-order walk with an explicit stack: operands are evaluated before their operator.
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    values: list[Number] = []
    while stack:
        node, operands_done = stack.pop()
        if not operands_done:
            operands = _check_node(node)
            stack.append((node, True))
            stack.extend((operand, False) for operand in reversed(operands))
            continue
        if isinstance(node, ast.Constant):
            values.append(_check_result(node.value))
        elif isinstance(node, ast.Name):
            values.append(CONSTANTS[node.id])
        elif isinstance(node, ast.UnaryOp):
            values.append(-values.pop() if isinstance(node.op, ast.USub) else +values.pop())
        elif isinstance(node, ast.BinOp):
            right, left = values.pop(), values.pop()
            values.append(_binary(node, left, right))
        elif isinstance(node, ast.Call):
            count = len(node.args)
            args, values[-count:] = values[-count:], []
            values.append(_call(node, args))
    return values[0]

"""Turn the AST of an argument into a value, accepting literals only; nothing is evaluated.

Accepted: strings (implicit concatenation ``"a" "b"`` included), integers, floats, ``True``,
``False``, ``None`` and their JSON spellings ``true``, ``false``, ``null`` (a model copying a
JSON result writes them), a minus sign before a number, lists, tuples (read as lists) and
dicts with string keys (a key given twice keeps its last value, as in Python and JSON).

Everything else is refused with :class:`Refused`, which names what was found (``an operator
expression `17 * 23```) and what to write instead: other names, attribute access, calls,
operators, comparisons, comprehensions, lambdas, f-strings, subscripts, sets, bytes, complex
numbers, ``...``, starred items and ``**`` inside a dict.
"""

from __future__ import annotations

import ast
from typing import Any

__all__ = ["JSON_CONSTANTS", "Refused", "literal_value", "shown"]

JSON_CONSTANTS: dict[str, Any] = {"true": True, "false": False, "null": None}
"""The JSON spellings accepted for ``True``, ``False`` and ``None``."""

# What a refused node is, for messages: "a comprehension", "a lambda"...
_KINDS: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access",
    ast.Call: "a call",
    ast.BinOp: "an operator expression",
    ast.BoolOp: "a boolean expression",
    ast.Compare: "a comparison",
    ast.UnaryOp: "an operator expression",
    ast.ListComp: "a comprehension",
    ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.Lambda: "a lambda",
    ast.JoinedStr: "an f-string",
    ast.FormattedValue: "an f-string",
    ast.Subscript: "an index or slice",
    ast.IfExp: "a conditional expression",
    ast.NamedExpr: "an assignment expression",
    ast.Await: "an await expression",
    ast.Yield: "a yield expression",
    ast.YieldFrom: "a yield expression",
    ast.Starred: "a starred item",
    ast.Set: "a set",
    ast.Slice: "a slice",
}
_NOT_RUN = "Nothing is evaluated: write the value itself."


def shown(source: str, node: ast.AST) -> str:
    """The source of ``node`` on one line, cut to 40 characters."""
    flat = " ".join((ast.get_source_segment(source, node) or "").split())
    return flat if len(flat) <= 40 else flat[:40] + "..."


class Refused(Exception):
    """A node that is not a literal.

    Attributes:
        node: The refused node (its position says where).
        what: What it is, with the source it came from (``"a call `print(...)`"``).
        advice: What to write instead, for the model.
    """

    def __init__(self, node: ast.AST, what: str, advice: str) -> None:
        super().__init__(what)
        self.node = node
        self.what = what
        self.advice = advice


class _Reader:
    def __init__(self, source: str, tools: frozenset[str]) -> None:
        self.source = source
        self.tools = tools

    def shown(self, node: ast.AST) -> str:
        return shown(self.source, node)

    def refuse(self, node: ast.AST, what: str, advice: str = _NOT_RUN) -> Refused:
        return Refused(node, f"{what} `{self.shown(node)}`", advice)

    def value(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.item(element) for element in node.elts]
        if isinstance(node, ast.Dict):
            return self.mapping(node)
        if isinstance(node, ast.Name):
            if node.id in JSON_CONSTANTS:
                return JSON_CONSTANTS[node.id]
            return self.name(node)
        if isinstance(node, ast.UnaryOp):
            return self.negative(node)
        raise self.other(node)

    def item(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Starred):
            raise self.refuse(node, "a starred item", "Write the items one by one.")
        return self.value(node)

    def constant(self, node: ast.Constant) -> Any:
        value = node.value
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, bytes):
            raise self.refuse(node, "a bytes literal", 'Write a string: "text".')
        if value is Ellipsis:
            raise self.refuse(
                node, "a placeholder", "Write a real value, or leave the argument out."
            )
        raise self.refuse(node, f"a {type(value).__name__} number", "Write an int or a float.")

    def name(self, node: ast.Name) -> Any:
        if node.id in self.tools:
            advice = (
                f"Call {node.id} on a line of its own; its result comes back in the observation."
            )
        else:
            advice = f'Nothing is looked up: write text in quotes ("{node.id}").'
        raise self.refuse(node, "the name", advice)

    def negative(self, node: ast.UnaryOp) -> Any:
        operand = node.operand
        if (
            isinstance(node.op, ast.USub)
            and isinstance(operand, ast.Constant)
            and isinstance(operand.value, (int, float))
            and not isinstance(operand.value, bool)
        ):
            return -operand.value
        raise self.refuse(
            node,
            "an operator expression",
            "Only a minus sign before a number is accepted; nothing is evaluated.",
        )

    def mapping(self, node: ast.Dict) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, item in zip(node.keys, node.values, strict=True):
            if key is None:
                raise self.refuse(
                    item, "`**` unpacking inside a dict", "Write the keys one by one."
                )
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                raise self.refuse(
                    key, "a dict key that is not a string", 'Write keys in quotes: {"key": 1}.'
                )
            result[key.value] = self.value(item)
        return result

    def other(self, node: ast.expr) -> Refused:
        what = _KINDS.get(type(node), f"a {type(node).__name__} expression")
        if isinstance(node, ast.Call):
            called = node.func.id if isinstance(node.func, ast.Name) else ""
            if called in self.tools:
                return self.refuse(
                    node,
                    "a call nested as an argument",
                    f"Call {called} on a line of its own; its result comes back in the "
                    "observation, and you can use it in a later call.",
                )
            return self.refuse(node, "a call nested as an argument", _NOT_RUN)
        if isinstance(node, ast.Attribute):
            return self.refuse(node, what, "Nothing is looked up: write the value itself.")
        if isinstance(node, (ast.BinOp, ast.BoolOp, ast.Compare)):
            text = self.shown(node)
            return self.refuse(
                node, what, f'Nothing is evaluated; if it is meant as text, write "{text}".'
            )
        if isinstance(node, ast.Set):
            return self.refuse(node, what, "Write a list: [1, 2].")
        if isinstance(node, ast.JoinedStr):
            return self.refuse(node, what, 'Write a plain string: "text".')
        return self.refuse(node, what)


def literal_value(node: ast.expr, source: str, tools: frozenset[str] = frozenset()) -> Any:
    """The value of ``node`` if it is a literal (see the module documentation).

    Args:
        node: An argument's expression.
        source: The source ``node`` was parsed from (to quote refused parts).
        tools: The chain's tool names (a nested call or name of a tool gets advice to call it
            on its own line).

    Raises:
        Refused: For the first part that is not a literal.
    """
    return _Reader(source, tools).value(node)

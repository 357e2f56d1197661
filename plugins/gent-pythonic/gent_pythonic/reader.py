r"""Read pythonic calls from an action section: :func:`read_python_calls`.

The text is scanned once (:mod:`gent_pythonic.scanner`: which lines are calls, where each ends,
what was cut off); each call is then parsed on its own with :func:`ast.parse` and its
arguments read by :func:`gent_pythonic.literals.literal_value`. Nothing is ever evaluated.

* The called name is read by the scanner, not by Python: it is replaced by a placeholder of
  the same length before parsing, so a tool named ``get-time``, ``if`` or ``math.factorial``
  can be called and columns stay exact. A dotted name is a tool name like any other, never an
  attribute looked up: ``os.system(...)`` is a call of a tool named ``os.system``.
* Keyword arguments map to the tool's arguments. ``**{"key": value}`` with a literal dict is
  accepted too (for names that are not Python identifiers); ``**name`` is not.
* Positional arguments, when allowed, map to the tool's parameters in the order its signature
  shows them: required ones first, then optional ones, each in schema order (see
  :func:`gent_pythonic.signature.parameter_order`). A positional argument to a name that is
  not a tool is an error (its parameters are unknown).
* Every value obeys gent's bounds (:func:`gent_core.bounds.check_value`: nesting, integer
  size, finite numbers, so ``1e999`` is refused); the whole text at most ``max_chars``
  characters. A parser failure on pathological input (``RecursionError``, ``MemoryError``) is
  an error for the model, never a crash.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from gent_core.bounds import MAX_INT_DIGITS, ValueBoundsError, check_value
from gent_core.textscan import quote_start
from gent_core.toolchain import ToolCall
from gent_pythonic.errors import PythonCallError, call_error
from gent_pythonic.guard import (
    GUARD_NEEDED,
    MAX_EXPRESSION_TOKENS,
    SAFE_CODE_CHARS,
    first_excess_token,
)
from gent_pythonic.literals import Refused, literal_value, shown
from gent_pythonic.scanner import CallSpan, scan_calls

__all__ = ["MAX_CHARS", "read_python_calls"]

MAX_CHARS = 1_000_000
"""Most characters of an action section read by default."""


@lru_cache(maxsize=64)
def _mentions(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """A known tool's name directly followed by ``(``, not inside a longer name."""
    if not names:
        return None
    choices = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9_.\-])({choices})\(")


class _CallReader:
    """Reads the calls of one text."""

    def __init__(
        self,
        text: str,
        tools: Mapping[str, Sequence[str]],
        positional: bool,
        section: str | None,
    ) -> None:
        self.text = text
        self.tools = tools
        self.names = frozenset(tools)
        self.positional = positional
        self.section = section

    def fail(self, offset: int, problem: str, advice: str = "") -> PythonCallError:
        return call_error(self.text, offset, problem, section=self.section, advice=advice)

    def line_start(self, span: CallSpan, line: int) -> int:
        """The offset in the text where the call source's 1-based ``line`` starts.

        The first line starts at the call's name.
        """
        pos = span.start
        for _ in range(max(line, 1) - 1):
            pos = self.text.index("\n", pos) + 1
        return pos

    def node_offset(self, span: CallSpan, node: ast.AST) -> int:
        """The offset in the text of ``node`` (whose column counts UTF-8 bytes)."""
        start = self.line_start(span, getattr(node, "lineno", 1))
        end = self.text.find("\n", start)
        line = self.text[start : len(self.text) if end < 0 else end]
        head = line.encode("utf-8", "surrogatepass")[: getattr(node, "col_offset", 0)]
        return start + len(head.decode("utf-8", "ignore"))

    def parse(self, span: CallSpan, number: int) -> tuple[ast.Call, str]:
        """The call's AST and the source it was parsed from."""
        label = f"call {number} ({span.name})"
        source = "_" * len(span.name) + self.text[span.start + len(span.name) : span.end]
        if "\x00" in source:
            raise self.fail(span.start, f"{label} holds a NUL character")
        if GUARD_NEEDED and span.code > SAFE_CODE_CHARS:
            self.guard(span, source, label)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "invalid escape sequence" and the like
                tree = ast.parse(source, mode="eval")
        except SyntaxError as error:
            if "integer string conversion" in str(error.msg):
                raise self.fail(
                    span.start,
                    f"{label} has an integer of more than {MAX_INT_DIGITS} digits",
                    "Write it as a string.",
                ) from None
            where = span.start
            if error.lineno:
                where = self.line_start(span, error.lineno) + max((error.offset or 1) - 1, 0)
            where = min(where, len(self.text))
            raise self.fail(where, f"{label} is not valid Python: {error.msg}") from None
        except (RecursionError, MemoryError):
            raise self.fail(
                span.start,
                f"{label} is nested too deeply to read",
                "Write flatter values.",
            ) from None
        except ValueError as error:  # a lone surrogate, an integer too long to convert...
            raise self.fail(span.start, f"{label} cannot be read: {error}") from None
        call = tree.body
        if not isinstance(call, ast.Call):  # pragma: no cover - the scanner ends at the ")"
            raise self.fail(span.start, f"{label} is not a call")
        return call, source

    def guard(self, span: CallSpan, source: str, label: str) -> None:
        """Refuse, unparsed, a large call holding too many tokens no literal needs (see
        :mod:`gent_pythonic.guard`).
        """
        try:
            excess = first_excess_token(source)
        except SyntaxError as error:
            raise self.fail(span.start, f"{label} is not valid Python: {error.msg}") from None
        if excess is not None:
            line, column = excess
            raise self.fail(
                self.line_start(span, line) + column,
                f"{label} holds more than {MAX_EXPRESSION_TOKENS} operators, names or calls",
                "Arguments are literal values; nothing is evaluated.",
            )

    def refused(self, span: CallSpan, label: str, refused: Refused) -> PythonCallError:
        offset = self.node_offset(span, refused.node)
        return self.fail(offset, f"{label} has {refused.what}", refused.advice)

    def arguments(
        self, span: CallSpan, call: ast.Call, source: str, number: int, nodes: dict[str, ast.AST]
    ) -> dict[str, Any]:
        """The call's arguments by name; ``nodes`` receives where each was written."""
        label = f"call {number} ({span.name})"
        named: dict[str, Any] = {}

        def put(name: str, value: Any, node: ast.AST) -> None:
            if name in named:
                raise self.fail(
                    self.node_offset(span, node),
                    f"{label} gives the argument {name} twice",
                    "Give each argument once.",
                )
            named[name] = value
            nodes[name] = node

        try:
            positional = [self.positional_value(span, node, source, label) for node in call.args]
            for keyword in call.keywords:
                if keyword.arg is not None:
                    put(keyword.arg, literal_value(keyword.value, source, self.names), keyword)
                elif isinstance(keyword.value, ast.Dict):
                    unpacked = literal_value(keyword.value, source, self.names)
                    for key, value in unpacked.items():
                        put(key, value, keyword)
                else:
                    raise Refused(
                        keyword,
                        f"`**` unpacking of `{shown(source, keyword.value)}`",
                        'Only a literal dict can be unpacked: **{"name": value}; nothing is '
                        "looked up.",
                    )
        except Refused as refused:
            raise self.refused(span, label, refused) from None
        if not positional:
            return named
        order = self.parameters_for(span, call, label, len(positional))
        result: dict[str, Any] = {}
        for name, value, node in zip(order, positional, call.args, strict=False):
            if name in named:
                raise self.fail(
                    self.node_offset(span, nodes[name]),
                    f"{label} gives the argument {name} twice (by position and by name)",
                    "Give each argument once.",
                )
            result[name] = value
            nodes[name] = node
        result.update(named)
        return result

    def positional_value(self, span: CallSpan, node: ast.expr, source: str, label: str) -> Any:
        if isinstance(node, ast.Starred):
            raise Refused(
                node,
                f"a starred argument `{shown(source, node)}`",
                "Write each argument with its name: name=value.",
            )
        if not self.positional:
            raise self.fail(
                self.node_offset(span, node),
                f"{label} has a positional argument",
                "Name every argument: name=value.",
            )
        return literal_value(node, source, self.names)

    def parameters_for(
        self, span: CallSpan, call: ast.Call, label: str, count: int
    ) -> Sequence[str]:
        order = self.tools.get(span.name)
        first = call.args[0]
        if order is None:
            known = ", ".join(sorted(self.names)) or "none"
            raise self.fail(
                self.node_offset(span, first),
                f"{label} has a positional argument, but {span.name} is not a tool, so its "
                "parameters are unknown",
                f"Call one of the tools ({known}) and name every argument: name=value.",
            )
        if count > len(order):
            shown = ", ".join(order) or "none"
            raise self.fail(
                self.node_offset(span, call.args[len(order)]),
                f"{label} has {count} positional argument{'s' if count > 1 else ''}, but "
                f"{span.name} takes "
                f"{len(order)} ({shown})",
                "Name every argument: name=value.",
            )
        return order

    def read(self, span: CallSpan, number: int) -> ToolCall:
        call, source = self.parse(span, number)
        nodes: dict[str, ast.AST] = {}
        arguments = self.arguments(span, call, source, number, nodes)
        try:
            check_value(arguments, name="args")
        except ValueBoundsError as error:
            node = nodes.get(str(error.path[0])) if error.path else None
            where = span.start if node is None else self.node_offset(span, node)
            raise self.fail(where, f"call {number} ({span.name}): {error.problem}") from None
        return ToolCall(span.name, arguments, f"call_{number - 1}")


def read_python_calls(
    text: str,
    *,
    tools: Mapping[str, Sequence[str]],
    positional: bool = True,
    section: str | None = None,
    max_chars: int = MAX_CHARS,
) -> list[ToolCall]:
    """Read the calls written as Python in ``text`` (ids ``call_0``, ``call_1``...).

    Args:
        text: The section's content, untrimmed; code fences, prose lines, comments and
            Windows line ends are accepted (see :mod:`gent_pythonic.scanner`).
        tools: The chain's tools: each name with its parameters in signature order (for
            positional arguments and for recognising calls).
        positional: Accept positional arguments for known tools.
        section: The section name, for error locations.
        max_chars: Most characters read.

    Returns:
        The calls in order; empty when ``text`` holds no call and no prose (blank, fences,
        comments, ``[]``).

    Raises:
        TruncatedCallError: A call or a list of calls was cut off; nothing is returned.
        PythonCallError: Anything that is not a literal-only call, or prose but no call.
    """
    if len(text) > max_chars:
        raise call_error(
            text,
            0,
            f"an action of {len(text)} characters (at most {max_chars} are read)",
            section=section,
            advice="Write shorter calls.",
        )
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    found = scan_calls(
        text,
        is_tool=tools.__contains__,
        mentions=_mentions(tuple(tools)),
        section=section,
    )
    if not found.calls:
        if found.prose is not None:
            where = f"the {section} section" if section else "your output"
            raise call_error(
                text,
                found.prose,
                f"no tool call found in {where}: `{quote_start(text)}`",
                section=section,
            )
        return []
    reader = _CallReader(text, tools, positional, section)
    return [reader.read(span, number) for number, span in enumerate(found.calls, start=1)]

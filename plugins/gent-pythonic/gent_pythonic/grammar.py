r"""The grammar of pythonic calls, restricted to the agent's tools and argument schemas.

One to ``builder.max_calls`` calls (the agent's ``limits.max_calls_per_action``), one per
line, written the way
:func:`gent_pythonic.writer.write_calls` writes them::

    calculator(expression="17 * 23")
    search(query="cats", limit=3)

Keyword arguments come in signature order (required ones, then any of the optional ones);
an argument whose name is not a Python identifier is ``**{"file-path": value}``. Values are
the JSON-Schema converter's, with Python's constants: ``True``, ``False`` and ``None`` instead
of ``true``, ``false`` and ``null``. Strings are double-quoted with JSON's escapes, which
Python reads the same way (except ``\\/``, which Python keeps as a backslash and a slash; it
still parses). Every text the grammar allows therefore parses back into calls of known tools
with arguments valid for their schemas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gent_core.grammar import (
    CallableTool,
    GrammarBuilder,
    JSONSchemaConverter,
    arguments_schema,
    literal,
    repeat_calls,
)
from gent_pythonic.writer import is_keyword_name, write_string, write_value

__all__ = ["PythonLiteralConverter", "python_calls"]


class PythonLiteralConverter(JSONSchemaConverter):
    """The JSON-Schema converter writing Python's ``True``, ``False`` and ``None``, and
    constants (``enum``, ``const``) as Python literals.

    Its rules are prefixed ``py-`` so they never mix with a JSON converter's in one builder.
    """

    def __init__(self, builder: GrammarBuilder) -> None:
        super().__init__(builder, flavor="json", prefix="py")

    def boolean(self) -> str:
        """The rule for ``True`` / ``False``."""
        return self.builder.add(f"{self.prefix}boolean", '"True" | "False"')

    def null(self) -> str:
        """The rule for ``None``."""
        return self.builder.add(f"{self.prefix}null", '"None"')

    def constant(self, value: Any) -> str:
        """The GBNF literal of ``value`` written as a Python literal."""
        return literal(write_value(value))


def _keyword(name: str, value_rule: str) -> str:
    if is_keyword_name(name):
        return f"{literal(name + '=')} {value_rule}"
    return f'{literal("**{" + write_string(name) + ": ")} {value_rule} "}}"'


def _arguments(
    builder: GrammarBuilder, converter: PythonLiteralConverter, tool: CallableTool
) -> str:
    """The expression of a tool's arguments inside its parentheses (possibly empty)."""
    schema: Mapping[str, Any] = arguments_schema(tool)
    properties = schema.get("properties")
    if not properties:
        if "properties" in schema or schema.get("additionalProperties") is False:
            return ""
        free = converter.convert(schema, f"{tool.name}-pyargs")
        return f'("**" {free})?'
    comma = '", "'
    parts = [
        (builder.add(f"{tool.name}-{key}-pykw", _keyword(key, rule)), required)
        for key, rule, required in converter.properties(schema, tool.name, root=True)
    ]
    required = [part for part, is_required in parts if is_required]
    optional = [part for part, is_required in parts if not is_required]
    if required:
        body = f" {comma} ".join(required)
        return body + "".join(f" ({comma} {part})?" for part in optional)
    options = [
        " ".join([first, *(f"({comma} {part})?" for part in optional[index + 1 :])])
        for index, first in enumerate(optional)
    ]
    return "(" + " | ".join(f"({option})" for option in options) + ")?"


def python_calls(builder: GrammarBuilder, tools: Sequence[CallableTool]) -> str:
    """Add the rules for pythonic calls of ``tools`` and return the calls rule's name.

    Strings never hold the texts the format must not see (``builder.avoid``); the rest of a
    call (names, ``(``, ``=``, ``,``, ``)``) holds no ``<``, ``#`` or line break.
    """
    converter = PythonLiteralConverter(builder)
    alternatives = []
    for tool in tools:
        arguments = _arguments(builder, converter, tool)
        expression = " ".join(part for part in (literal(f"{tool.name}("), arguments, '")"') if part)
        alternatives.append(builder.add(f"{tool.name}-pycall", expression))
    call = builder.add("py-call", " | ".join(alternatives))
    return builder.add("py-calls", repeat_calls(call, '"\\n"', max_calls=builder.max_calls))

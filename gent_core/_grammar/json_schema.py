"""JSON Schema to GBNF: grammars whose every output is a JSON value valid for the schema.

Supported: ``type`` (one or a list), ``object`` with ``properties`` / ``required`` /
``additionalProperties`` (extra keys are refused unless ``additionalProperties`` is a schema
and there are no ``properties``, i.e. a dictionary), ``array`` with ``items`` / ``prefixItems``
/ ``minItems`` / ``maxItems``, ``string`` (with ``minLength`` / ``maxLength`` and the formats
``date``, ``time``, ``date-time``, ``uuid``, ``duration``), ``number``, ``integer``,
``boolean``, ``null``, ``enum``, ``const``, ``anyOf`` / ``oneOf``, ``allOf`` (merged),
``nullable``, and local ``$ref`` (``#/$defs/...``, ``#/definitions/...``, recursive ones
included). Unknown keywords (``pattern``, ``minimum``...) are ignored: the value is only
constrained by its type.

Two flavours share the converter: ``"json"`` (plain JSON with optional whitespace) and
``"yaml"``, JSON *flow* syntax that YAML parsers read back to the same value (``", "`` and
``": "`` separators, numbers without exponents, strings always double-quoted).

Required properties come first, then optional ones, each in schema order.

Bounds that keep a small model from running away without refusing realistic values: arrays
and dictionaries without ``maxItems`` hold at most :data:`DEFAULT_MAX_ITEMS` items; numbers
have at most 16 integral and 16 fractional digits (beyond what a double represents) and a
two-digit exponent, so every number the grammar allows is finite (``1e999`` would read as
infinity, which is not a JSON number). Strings
never contain the texts the format must not see inside a section (the builder's ``avoid``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from gent_core._grammar.builder import GrammarBuilder, literal
from gent_core._grammar.strings import string_char
from gent_core._schema_refs import is_local_ref, resolve_pointer
from gent_core.errors import GentError

__all__ = ["JSONSchemaConverter", "SchemaGrammarError"]

Flavor = Literal["json", "yaml"]

_STRING_FORMATS = {
    "date": r'"\"" fmt-date "\""',
    "time": r'"\"" fmt-time "\""',
    "date-time": r'"\"" fmt-date "T" fmt-time "\""',
    "uuid": r'"\"" [0-9a-fA-F]{8} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" '
    r'[0-9a-fA-F]{4} "-" [0-9a-fA-F]{12} "\""',
    "duration": r'"\"P" ([0-9]{1,4} "D" ("T" fmt-duration-time)? | "T" fmt-duration-time) "\""',
}
# Every date the rule allows exists (29 February is left out rather than checking leap years).
_FORMAT_PARTS = {
    "fmt-day-28": r'"0" [1-9] | "1" [0-9] | "2" [0-8]',
    "fmt-date": r'[1-9] [0-9]{3} "-" ("02-" fmt-day-28 | ("04" | "06" | "09" | "11") "-" '
    r'(fmt-day-28 | "29" | "30") | ("01" | "03" | "05" | "07" | "08" | "10" | "12") "-" '
    r'(fmt-day-28 | "29" | "30" | "31"))',
    "fmt-time": r'([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" [0-5] [0-9] ("." [0-9]{1,6})? '
    r'("Z" | [+\x2D] ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9])?',
    "fmt-seconds": r'[0-9]{1,4} ("." [0-9]{1,3})? "S"',
    "fmt-duration-time": r'[0-9]{1,4} "H" ([0-9]{1,4} "M")? fmt-seconds? | [0-9]{1,4} "M" '
    r"fmt-seconds? | fmt-seconds",
}
_MAX_BOUNDED = 64  # longest {m,n} repetition written out for lengths and item counts

DEFAULT_MAX_ITEMS = 8
"""Most items of an array (or entries of a dictionary) whose schema sets no ``maxItems``.

A small model caught in a loop repeats the same item until it runs out of tokens; the bound
ends the value instead. A schema's own ``maxItems`` (or ``minItems`` above the bound) always
wins, so a tool that needs longer lists says so in its schema."""


class SchemaGrammarError(GentError):
    """A JSON Schema cannot be turned into a grammar (a bad ``$ref``, an empty ``enum``...)."""


class JSONSchemaConverter:
    """Turns JSON Schemas into GBNF rules inside a :class:`GrammarBuilder`.

    Args:
        builder: Where the rules go.
        flavor: ``"json"`` or ``"yaml"`` (JSON flow syntax readable by YAML parsers).
        prefix: A prefix for the generated rule names (keeps several converters apart).
        avoid: Texts strings must never contain (case-insensitively), because the format
            would read them as a delimiter; defaults to the builder's
            :attr:`~gent_core._grammar.GrammarBuilder.avoid`. See
            :func:`gent_core._grammar.strings.string_char`.
        xml_safe: Also keep ``</`` out of strings.
        max_items: Most items of an array whose schema sets no ``maxItems`` (see
            :data:`DEFAULT_MAX_ITEMS`); ``None`` leaves such arrays unbounded.
        line_breaks: Whether white space between tokens may break lines (JSON flavour);
            ``False`` keeps every value on one line, for line-based call syntaxes.

    Extending: every scalar is written through a public method — :meth:`string`,
    :meth:`number`, :meth:`integer`, :meth:`boolean`, :meth:`null`, :meth:`constant` (enum
    and const values) and :meth:`any_value` — so a subclass that overrides them writes
    another literal syntax with the same structure rules (``gent-pythonic`` writes Python's
    ``True``/``False``/``None`` this way). These methods are part of the toolkit's contract.

    Raises:
        StringGrammarError: When strings cannot be kept free of a text in ``avoid``.
    """

    def __init__(
        self,
        builder: GrammarBuilder,
        *,
        flavor: Flavor = "json",
        prefix: str = "",
        avoid: Sequence[str] | None = None,
        xml_safe: bool = False,
        max_items: int | None = None,
        line_breaks: bool = True,
    ) -> None:
        self.builder = builder
        self.flavor = flavor
        self.prefix = f"{prefix}-" if prefix else ("" if flavor == "json" else "y-")
        texts = list(builder.avoid if avoid is None else avoid)
        if xml_safe:
            texts.append("</")
        self.avoid: tuple[str, ...] = tuple(dict.fromkeys(texts))
        self.max_items = DEFAULT_MAX_ITEMS if max_items is None else max_items
        self.line_breaks = line_breaks
        self._char_rule: str | None = None
        self._root_schema: Mapping[str, Any] = {}
        self._refs: dict[str, str] = {}

    # ----------------------------------------------------------------- primitive rules

    def _rule(self, name: str, expression: str) -> str:
        return self.builder.add(self.prefix + name, expression)

    @property
    def ws(self) -> str:
        """Optional whitespace between tokens (nothing in the YAML flavour)."""
        if not self.line_breaks:
            return self._rule("ws-inline", r'| " "')
        return self._rule("ws", r'| " " | "\n" [ \t]{0,16}')

    def _open(self, char: str) -> str:
        return f'"{char}" {self.ws}' if self.flavor == "json" else f'"{char}"'

    def _close(self, char: str) -> str:
        return f'{self.ws} "{char}"' if self.flavor == "json" else f'"{char}"'

    @property
    def _comma(self) -> str:
        return f'"," {self.ws}' if self.flavor == "json" else '", "'

    @property
    def _colon(self) -> str:
        return f'{self.ws} ":" {self.ws}' if self.flavor == "json" else '": "'

    @property
    def char(self) -> str:
        """The rule for one unit of a string (a character or an escape sequence)."""
        if self._char_rule is None:
            self._char_rule = string_char(self.builder, self.prefix, self.avoid)
        return self._char_rule

    def string(self) -> str:
        """The rule for any JSON string: no raw line breaks, quotes and backslashes escaped."""
        return self._rule("string", f'"\\"" {self.char}* "\\""')

    def number(self) -> str:
        """The rule for a number (no exponent in the YAML flavour)."""
        integral = self._rule("integral", '"0" | [1-9] [0-9]{0,15}')
        if self.flavor == "json":
            expr = f'"-"? {integral} ("." [0-9]{{1,16}})? ([eE] [-+]? [0-9]{{1,2}})?'
        else:
            expr = f'"-"? {integral} ("." [0-9]{{1,16}})?'
        return self._rule("number", expr)

    def integer(self) -> str:
        """The rule for an integer."""
        integral = self._rule("integral", '"0" | [1-9] [0-9]{0,15}')
        return self._rule("integer", f'"-"? {integral}')

    def boolean(self) -> str:
        """The rule for ``true`` / ``false``."""
        return self._rule("boolean", '"true" | "false"')

    def null(self) -> str:
        """The rule for ``null``."""
        return self._rule("null", '"null"')

    def any_value(self) -> str:
        """The rule for any JSON value."""
        name = self.prefix + "value"
        if self.builder.has(name):
            return name
        name = self.builder.reserve(name)
        string = self.string()
        more = self._more()
        items = f"{name} ({self._comma} {name}){more}"
        pairs = f"{string} {self._colon} {name} ({self._comma} {string} {self._colon} {name}){more}"
        array = self._rule("array", f"{self._open('[')} ({items})? {self._close(']')}")
        obj = self._rule("object", f"{self._open('{')} ({pairs})? {self._close('}')}")
        choices = [obj, array, string, self.number(), self.boolean(), self.null()]
        self.builder.define(name, " | ".join(choices))
        return name

    def _more(self) -> str:
        """The repetition of the items after the first in an unbounded collection."""
        return f"{{0,{self.max_items - 1}}}" if self.max_items else "*"

    def constant(self, value: Any) -> str:
        """The GBNF literal of a JSON value (as this flavour writes it)."""
        if self.flavor == "json":
            return literal(json.dumps(value, ensure_ascii=False))
        return literal(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))

    # ----------------------------------------------------------------- schemas

    def convert(self, schema: Mapping[str, Any], name: str = "schema") -> str:
        """Add the rules for ``schema`` and return the name of its rule.

        Args:
            schema: A JSON Schema (its ``$defs`` / ``definitions`` resolve local ``$ref``).
            name: A hint for the rule name.

        Raises:
            SchemaGrammarError: For a ``$ref`` that cannot be resolved or an empty ``enum``.
        """
        self._root_schema = schema
        self._refs = {}
        expression = self.visit(schema, name)
        return self._rule(name, expression)

    def visit(self, schema: Mapping[str, Any] | bool, name: str) -> str:
        """Return a GBNF expression for ``schema`` (adding helper rules as needed)."""
        if schema is True or schema == {}:
            return self.any_value()
        if schema is False:
            raise SchemaGrammarError(f"schema {name!r} accepts no value")
        assert isinstance(schema, Mapping)
        if "$ref" in schema:
            return self._ref(str(schema["$ref"]))
        if "const" in schema:
            return self.constant(schema["const"])
        if "enum" in schema:
            values = list(schema["enum"])
            if not values:
                raise SchemaGrammarError(f"schema {name!r} has an empty enum")
            return "(" + " | ".join(self.constant(value) for value in values) + ")"
        for key in ("anyOf", "oneOf"):
            if key in schema:
                options = [
                    self.visit(option, f"{name}-{i}") for i, option in enumerate(schema[key])
                ]
                return self._nullable(schema, "(" + " | ".join(options) + ")")
        if "allOf" in schema:
            return self.visit(self._merge(schema), name)
        kind = schema.get("type")
        if isinstance(kind, list):
            options = [
                self.visit({**schema, "type": single}, f"{name}-{single}") for single in kind
            ]
            return "(" + " | ".join(options) + ")"
        return self._nullable(schema, self._typed(schema, kind, name))

    def _nullable(self, schema: Mapping[str, Any], expression: str) -> str:
        if schema.get("nullable") is True:
            return f"({expression} | {self.null()})"
        return expression

    def _typed(self, schema: Mapping[str, Any], kind: object, name: str) -> str:
        if kind == "object" or (kind is None and "properties" in schema):
            return self._object(schema, name)
        if kind == "array" or (kind is None and ("items" in schema or "prefixItems" in schema)):
            return self._array(schema, name)
        if kind == "string":
            return self._string(schema)
        if kind == "number":
            return self.number()
        if kind == "integer":
            return self.integer()
        if kind == "boolean":
            return self.boolean()
        if kind == "null":
            return self.null()
        return self.any_value()

    def _ref(self, ref: str) -> str:
        if ref in self._refs:
            return self._refs[ref]
        target = self._resolve(ref)
        rule = self.builder.reserve(self.prefix + "ref-" + ref.rsplit("/", 1)[-1])
        self._refs[ref] = rule
        self.builder.define(rule, self.visit(target, rule))
        return rule

    def _merge(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            if isinstance(part, Mapping) and "$ref" in part:
                part = self._resolve(str(part["$ref"]))
            if not isinstance(part, Mapping):
                continue
            for key, value in part.items():
                if key == "properties":
                    merged["properties"] = {**merged.get("properties", {}), **value}
                elif key == "required":
                    merged["required"] = [*merged.get("required", []), *value]
                else:
                    merged.setdefault(key, value)
        return merged

    def _resolve(self, ref: str) -> Mapping[str, Any]:
        if not is_local_ref(ref):
            raise SchemaGrammarError(f"only local $ref are supported, got {ref!r}")
        try:
            target = resolve_pointer(self._root_schema, ref)
        except LookupError:
            raise SchemaGrammarError(f"cannot resolve $ref {ref!r}") from None
        if not isinstance(target, Mapping):
            raise SchemaGrammarError(f"$ref {ref!r} is not a schema")
        return target

    def _string(self, schema: Mapping[str, Any]) -> str:
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in _STRING_FORMATS:
            for part, expression in _FORMAT_PARTS.items():
                if self.builder.add(part, expression) != part:
                    raise SchemaGrammarError(f"the rule name {part!r} is taken")
            return self._rule(f"string-{fmt}", _STRING_FORMATS[fmt])
        low = int(schema.get("minLength", 0))
        high = schema.get("maxLength")
        if low == 0 and high is None:
            return self.string()
        char = self.char
        if high is not None and int(high) <= _MAX_BOUNDED:
            repeat = f"{{{low},{int(high)}}}"
        else:
            repeat = f"{{{min(low, _MAX_BOUNDED)},}}"
        return f'"\\"" {char}{repeat} "\\""'

    def _array(self, schema: Mapping[str, Any], name: str) -> str:
        prefix_items: Sequence[Any] = schema.get("prefixItems", ())
        if prefix_items:
            parts = [self.visit(item, f"{name}-{i}") for i, item in enumerate(prefix_items)]
            body = f" {self._comma} ".join(parts)
            return f"{self._open('[')} {body} {self._close(']')}"
        item_schema = schema.get("items", True)
        item = self._rule(f"{name}-item", self.visit(item_schema, f"{name}-item"))
        low = int(schema.get("minItems", 0))
        high = schema.get("maxItems")
        if high is not None and int(high) == 0:
            return f"{self._open('[')} {self._close(']')}"
        more_low = max(low - 1, 0)
        if high is None and self.max_items:
            high = max(self.max_items, low)
        if high is not None and int(high) <= _MAX_BOUNDED:
            more = f"({self._comma} {item}){{{more_low},{int(high) - 1}}}"
        else:
            more = f"({self._comma} {item}){{{min(more_low, _MAX_BOUNDED)},}}"
        items = f"{item} {more}"
        if low == 0:
            items = f"({items})?"
        return f"{self._open('[')} {items} {self._close(']')}"

    def properties(
        self, schema: Mapping[str, Any], name: str, *, root: bool = False
    ) -> list[tuple[str, str, bool]]:
        """Return ``(property, value rule, required)`` for an object schema's properties,
        required ones first (used by block-style writers such as the YAML call rules).

        Args:
            schema: An object schema.
            name: A hint for the rule names.
            root: ``schema`` is a whole document (its ``$defs`` resolve ``$ref``).
        """
        if root:
            self._root_schema = schema
            self._refs = {}
        props: Mapping[str, Any] = schema.get("properties", {})
        required = [key for key in props if key in set(schema.get("required", ()))]
        optional = [key for key in props if key not in required]
        result: list[tuple[str, str, bool]] = []
        for key in [*required, *optional]:
            value = self._rule(f"{name}-{key}", self.visit(props[key], f"{name}-{key}"))
            result.append((key, value, key in required))
        return result

    def _object(self, schema: Mapping[str, Any], name: str) -> str:
        props = self.properties(schema, name)
        extra = schema.get("additionalProperties")
        if not props:
            if extra is False:
                return f"{self._open('{')} {self._close('}')}"
            value = self.visit(extra if isinstance(extra, Mapping) else True, f"{name}-value")
            pair = self._rule(f"{name}-pair", f"{self.string()} {self._colon} {value}")
            more = self._more()
            return f"{self._open('{')} ({pair} ({self._comma} {pair}){more})? {self._close('}')}"
        pairs = [
            (self._rule(f"{name}-{key}-kv", f"{self.constant(key)} {self._colon} {rule}"), req)
            for key, rule, req in props
        ]
        required = [pair for pair, req in pairs if req]
        optional = [pair for pair, req in pairs if not req]
        if required:
            body = f" {self._comma} ".join(required)
            body += "".join(f" ({self._comma} {pair})?" for pair in optional)
        else:
            body = "(" + self._optional_chain(optional) + ")?"
        return f"{self._open('{')} {body} {self._close('}')}"

    def _optional_chain(self, pairs: Sequence[str]) -> str:
        """Alternatives where any non-empty ordered subset of ``pairs`` may appear."""
        options = []
        for index, first in enumerate(pairs):
            rest = "".join(f" ({self._comma} {pair})?" for pair in pairs[index + 1 :])
            options.append(f"{first}{rest}")
        return " | ".join(options)

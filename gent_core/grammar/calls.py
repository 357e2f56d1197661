"""Grammar rules for tool calls written as JSON or YAML, restricted to the agent's tools.

JSON (what ``gent-json`` reads)::

    {"tool": "calculator", "args": {"expression": "2 + 2"}}
    [{"tool": "a", "args": {...}}, {"tool": "b", "args": {...}}]

YAML (what ``gent-yaml`` reads)::

    tool: calculator
    args:
      expression: "2 + 2"

    - tool: a
      args:
        x: 1

In YAML, argument values are written in JSON flow syntax (strings double-quoted, nested
objects as ``{"k": v}``), which every YAML parser reads back unchanged; plain scalars such as
``yes`` or ``1e5`` would change type, so they are not offered.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from gent_core.grammar.builder import GrammarBuilder, literal
from gent_core.grammar.json_schema import JSONSchemaConverter

__all__ = ["MAX_CALLS", "CallableTool", "json_calls", "yaml_calls", "yaml_key"]

MAX_CALLS = 4
"""Most calls one action may hold: small models otherwise repeat a call until cut off."""

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_YAML_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}


class CallableTool(Protocol):
    """What the call rules need from a tool: its name and argument schema."""

    @property
    def name(self) -> str:
        """The tool's name."""
        ...

    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON Schema of its arguments."""
        ...


def _args_schema(tool: CallableTool) -> Mapping[str, Any]:
    schema = tool.parameters or {}
    if "type" not in schema and "properties" not in schema:
        return {"type": "object", "properties": {}, "additionalProperties": False}
    return schema


def json_calls(
    builder: GrammarBuilder, tools: Sequence[CallableTool], *, xml_safe: bool = False
) -> str:
    """Add the rules for JSON tool calls and return the calls rule's name.

    The rule accepts one call object or an array of up to :data:`MAX_CALLS` call objects; each
    names one of ``tools`` and has arguments valid for that tool's schema. ``xml_safe`` keeps
    ``</`` out of strings.
    """
    converter = JSONSchemaConverter(builder, flavor="json", xml_safe=xml_safe)
    ws = converter.ws
    alternatives = []
    for tool in tools:
        args = converter.convert(_args_schema(tool), f"{tool.name}-args")
        expression = (
            f'"{{" {ws} "\\"tool\\"" {ws} ":" {ws} {converter.constant(tool.name)} "," {ws} '
            f'"\\"args\\"" {ws} ":" {ws} {args} {ws} "}}"'
        )
        alternatives.append(builder.add(f"{tool.name}-call", expression))
    call = builder.add("call", " | ".join(alternatives))
    array = f'"[" {ws} {call} ("," {ws} {call}){{0,{MAX_CALLS - 1}}} {ws} "]"'
    return builder.add("calls", f"{call} | {array}")


def yaml_key(key: str) -> str:
    """Return ``key`` as written in a YAML block mapping: plain when safe, else quoted."""
    if _PLAIN_KEY.fullmatch(key) and key.lower() not in _YAML_RESERVED:
        return key
    return json.dumps(key, ensure_ascii=False)


def _yaml_args(
    builder: GrammarBuilder, converter: JSONSchemaConverter, tool: CallableTool, indent: str
) -> str:
    schema = _args_schema(tool)
    props = (
        converter.properties(schema, f"{tool.name}-yargs", root=True)
        if "properties" in schema
        else []
    )
    empty = '" {}"'
    if not props:
        if "properties" in schema or schema.get("additionalProperties") is False:
            return empty
        value = converter.convert(schema, f"{tool.name}-yargs")
        return f'" " {value}'
    lines = [
        (
            builder.add(
                f"{tool.name}-{key}-yline",
                f"{literal(chr(10) + indent + yaml_key(key) + ': ')} {rule}",
            ),
            required,
        )
        for key, rule, required in props
    ]
    required_lines = [line for line, required in lines if required]
    optional_lines = [line for line, required in lines if not required]
    if required_lines:
        return " ".join(required_lines) + "".join(f" {line}?" for line in optional_lines)
    options = []
    for index, first in enumerate(optional_lines):
        options.append(" ".join([first, *(f"{line}?" for line in optional_lines[index + 1 :])]))
    return f"({empty} | " + " | ".join(options) + ")"


def yaml_calls(
    builder: GrammarBuilder, tools: Sequence[CallableTool], *, xml_safe: bool = False
) -> str:
    """Add the rules for YAML tool calls and return the calls rule's name.

    The rule accepts one call mapping or a block list of up to :data:`MAX_CALLS` of them.
    ``xml_safe`` keeps ``</`` out of strings.
    """
    converter = JSONSchemaConverter(builder, flavor="yaml", xml_safe=xml_safe)
    single: list[str] = []
    listed: list[str] = []
    for tool in tools:
        name = literal(yaml_key(tool.name))
        args = _yaml_args(builder, converter, tool, "  ")
        single.append(builder.add(f"{tool.name}-ycall", f'"tool: " {name} "\\nargs:" {args}'))
        item_args = _yaml_args(builder, converter, tool, "    ")
        listed.append(
            builder.add(f"{tool.name}-yitem", f'"- tool: " {name} "\\n  args:" {item_args}')
        )
    call = builder.add("ycall", " | ".join(single))
    item = builder.add("yitem", " | ".join(listed))
    return builder.add("ycalls", f'{call} | {item} ("\\n" {item}){{0,{MAX_CALLS - 1}}}')

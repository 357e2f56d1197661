"""The grammar of YAML tool calls, restricted to the agent's tools and argument schemas.

One call mapping, or a block list of them::

    tool: calculator
    args:
      expression: "2 + 2"

    - tool: a
      args:
        x: 1

Argument values are written in JSON flow syntax (strings double-quoted, nested objects as
``{"k": v}``), which every YAML parser reads back unchanged; plain scalars such as ``yes`` or
``1e5`` would change type, so they are not offered (:func:`gent_yaml.write.format_yaml_calls`
writes the same form).
"""

from __future__ import annotations

from collections.abc import Sequence

from gent_core.grammar import (
    CallableTool,
    GrammarBuilder,
    JSONSchemaConverter,
    arguments_schema,
    literal,
    repeat_calls,
)
from gent_yaml.write import yaml_key

__all__ = ["yaml_calls"]


def _arguments(
    builder: GrammarBuilder, converter: JSONSchemaConverter, tool: CallableTool, indent: str
) -> str:
    schema = arguments_schema(tool)
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


def yaml_calls(builder: GrammarBuilder, tools: Sequence[CallableTool]) -> str:
    """Add the rules for YAML tool calls and return the calls rule's name.

    The rule accepts one call mapping or a block list of up to
    ``builder.max_calls`` of them. Strings never hold the texts the format
    must not see (``builder.avoid``).
    """
    converter = JSONSchemaConverter(builder, flavor="yaml")
    single: list[str] = []
    listed: list[str] = []
    for tool in tools:
        name = literal(yaml_key(tool.name))
        args = _arguments(builder, converter, tool, "  ")
        single.append(builder.add(f"{tool.name}-ycall", f'"tool: " {name} "\\nargs:" {args}'))
        item_args = _arguments(builder, converter, tool, "    ")
        listed.append(
            builder.add(f"{tool.name}-yitem", f'"- tool: " {name} "\\n  args:" {item_args}')
        )
    call = builder.add("ycall", " | ".join(single))
    item = builder.add("yitem", " | ".join(listed))
    several = repeat_calls(item, '"\\n"', max_calls=builder.max_calls)
    return builder.add("ycalls", f"{call} | {several}")

"""Read YAML tool calls from an action section: :func:`read_yaml_calls`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yaml
from gent_json import ARGUMENT_KEYS, NAME_KEYS, CallSyntax, fenced_blocks, normalize_call
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from gent_core.errors import GentError, InvalidYAMLError, Location, TruncatedCallError
from gent_core.textscan import quote_end, quote_start, snippet_at
from gent_core.toolchain import ToolCall
from gent_yaml.convert import check_collection_tag, key_text, to_python
from gent_yaml.loader import MAX_NODES, compose_documents

__all__ = ["YAML_CALL_FORM", "YAML_SYNTAX", "SchemaLookup", "read_yaml_calls"]

YAML_CALL_FORM = (
    "Write one call as a YAML mapping:\n"
    "tool: <tool name>\n"
    "args:\n"
    "  <argument>: <value>\n"
    'or several calls as a list of such mappings, each starting with "- tool:". Write '
    'multi-line text as a block: "content: |" followed by the lines, indented.'
)
"""The accepted form of YAML calls, quoted in error messages for the model."""

YAML_SYNTAX = CallSyntax(InvalidYAMLError, YAML_CALL_FORM)
"""The syntax of YAML calls."""

SchemaLookup = Callable[[str], "dict[str, Any] | None"]
"""Returns the parameters schema of the tool with a given name, or ``None``."""


def _invalid(error: yaml.YAMLError, source: str, section: str | None) -> GentError:
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or str(error)
    context = getattr(error, "context", None)
    reason = f"{problem} ({context})" if context else problem
    at_end = mark is not None and not source[mark.index :].strip()
    unfinished = (
        "end of stream" in problem
        or "<stream end>" in problem
        or any(
            word in (context or "") for word in ("quoted scalar", "flow mapping", "flow sequence")
        )
    )
    if mark is not None and at_end and unfinished:
        missing = (
            "a quoted string is not closed"
            if "quoted scalar" in (context or "")
            else "a closing } or ] is missing"
        )
        return TruncatedCallError(
            f"tool call cut off: {reason}",
            location=Location(section=section, line=mark.line + 1, column=mark.column + 1),
            model_message=(
                f"Your call was cut off after `{quote_end(source)}` ({missing}); "
                "write the complete call again."
            ),
        )
    where = ""
    location = Location(section=section)
    if mark is not None:
        where = f" at line {mark.line + 1}, column {mark.column + 1}"
        near = f", near `{snippet_at(source, mark.index)}`" if source.strip() else ""
        where += near
        location = Location(
            section=section, line=mark.line + 1, column=mark.column + 1, offset=mark.index
        )
    return InvalidYAMLError(
        f"invalid YAML{where}: {reason}",
        location=location,
        model_message=f"Your call is not valid YAML: {reason}{where}.\n{YAML_CALL_FORM}",
    )


def _name_of(node: MappingNode) -> str | None:
    for key_node, value_node in node.value:
        if (
            isinstance(key_node, ScalarNode)
            and key_node.value in NAME_KEYS
            and isinstance(value_node, ScalarNode)
        ):
            return str(value_node.value).strip()
    return None


def _call_value(node: MappingNode, schemas: SchemaLookup) -> dict[str, Any]:
    """Build a call mapping, converting its arguments with the named tool's schema."""
    check_collection_tag(node)
    name = _name_of(node)
    parameters = schemas(name) if name else None
    call: dict[str, Any] = {}
    for key_node, value_node in node.value:
        key = key_text(key_node)
        if key in NAME_KEYS and isinstance(value_node, ScalarNode):
            call[key] = str(value_node.value)
        elif key in ARGUMENT_KEYS and parameters is not None:
            call[key] = to_python(value_node, parameters, parameters)
        else:
            call[key] = to_python(value_node)
    return call


def _document_calls(root: Node | None, section: str | None) -> list[MappingNode]:
    if root is None:
        return []
    if isinstance(root, MappingNode):
        return [root]
    if isinstance(root, SequenceNode):
        check_collection_tag(root)
        items = list(root.value)
        for number, item in enumerate(items, start=1):
            if not isinstance(item, MappingNode):
                shown = item.value if isinstance(item, ScalarNode) else "a list"
                raise InvalidYAMLError(
                    f"list item {number} is not a call mapping",
                    location=Location(section=section, line=item.start_mark.line + 1),
                    model_message=(
                        f"Item {number} of your list is not a call (got `{quote_start(shown)}`)."
                        f"\n{YAML_CALL_FORM}"
                    ),
                )
        return [item for item in items if isinstance(item, MappingNode)]
    assert isinstance(root, ScalarNode)
    if to_python(root) is None:
        return []
    raise InvalidYAMLError(
        "the YAML is text, not a call mapping",
        location=Location(section=section),
        model_message=(
            f"No tool call found: `{quote_start(root.value)}` is text, not a call.\n"
            f"{YAML_CALL_FORM}"
        ),
    )


def read_yaml_calls(
    text: str,
    *,
    schemas: SchemaLookup | None = None,
    section: str | None = None,
    max_nodes: int = MAX_NODES,
) -> list[ToolCall]:
    """Read the tool calls written as YAML in ``text`` (ids ``call_0``, ``call_1``...).

    Args:
        text: The section's content: a call mapping, a list of them, or several documents
            (``---``), optionally in code fences (only the fenced blocks are read then).
        schemas: Returns a tool's parameters schema by name, so that arguments the schema
            types as strings keep the text the model wrote. Without it, or for unknown tools,
            values follow the YAML 1.2 core schema.
        section: The section name, for error locations and messages.
        max_nodes: Most values one document may expand to through aliases.

    Raises:
        TruncatedCallError: The YAML ends in the middle of a flow collection or a quoted
            string (the call was cut off).
        InvalidYAMLError: Invalid or unsafe YAML (Python tags, alias bombs), or no call.
        MissingToolNameError: A call does not name its tool.
    """
    lookup: SchemaLookup = schemas if schemas is not None else (lambda _name: None)
    sources = fenced_blocks(text)
    if sources is None:
        sources = [text]
    values: list[dict[str, Any]] = []
    for source in sources:
        try:
            for root in compose_documents(source, max_nodes=max_nodes):
                for node in _document_calls(root, section):
                    values.append(_call_value(node, lookup))
        except yaml.YAMLError as error:
            raise _invalid(error, source, section) from None
        except RecursionError:
            raise InvalidYAMLError(
                "YAML nested too deeply",
                location=Location(section=section),
                model_message=f"Your call is nested too deeply.\n{YAML_CALL_FORM}",
            ) from None
    calls: list[ToolCall] = []
    for number, value in enumerate(values, start=1):
        name, arguments = normalize_call(value, number, syntax=YAML_SYNTAX, section=section)
        calls.append(ToolCall(name, arguments, f"call_{number - 1}"))
    return calls

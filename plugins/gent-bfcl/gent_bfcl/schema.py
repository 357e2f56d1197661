"""BFCL's schema dialect as standard JSON Schema, for gent tools.

BFCL writes function parameters in a dialect of JSON Schema: ``"type": "dict"`` for objects,
``"float"`` and ``"tuple"``, Python and Java type names (``"bool"``, ``"list"``,
``"HashMap"``...), ``"any"``, and a non-standard ``"optional"`` flag. :func:`to_json_schema`
writes it as the JSON Schema subset gent's tools accept
(:class:`gent_core.tools.SchemaValidator`):

* types are mapped as BFCL itself maps them for function-calling APIs
  (``GORILLA_TO_OPENAPI`` in ``bfcl_eval.constants.type_mappings``): ``dict`` -> ``object``,
  ``float`` -> ``number``, ``tuple`` -> ``array``, ``any`` -> ``string`` (BFCL's checker
  expects a string for ``any`` too); a property without a type is a ``string``, as there;
* ``properties``, ``items`` and ``additionalProperties`` are converted at every depth;
* ``required``, ``default``, ``enum``, ``description`` and every other standard keyword are
  kept as written; ``optional`` is dropped (``required`` says the same, and BFCL's own
  converter ignores it);
* a type BFCL does not know is an error (BFCL's converter would silently make it a string).

Nothing is added: no ``additionalProperties: false`` (BFCL's checker, not the schema, rejects
unexpected arguments) and no text in descriptions. Note for the checker: gent's validator fills
in a left-out argument's ``default``; BFCL judges the calls *as the model wrote them*, so check
the parsed arguments, not the validated ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gent_bfcl.names import to_gent_name
from gent_core.tools import DeclarationError, standard_schema

__all__ = ["TYPES", "BFCLSchemaError", "ToolSpec", "to_json_schema", "to_tool_spec"]

TYPES: Mapping[str, str | None] = {
    # BFCL's GORILLA_TO_OPENAPI, plus the Python builtin names
    "integer": "integer",
    "int": "integer",
    "number": "number",
    "float": "number",
    "string": "string",
    "str": "string",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "tuple": "array",
    "dict": "object",
    "object": "object",
    "any": "string",
    "byte": "integer",
    "short": "integer",
    "long": "integer",
    "double": "number",
    "char": "string",
    "ArrayList": "array",
    "Array": "array",
    "HashMap": "object",
    "Hashtable": "object",
    "Queue": "array",
    "Stack": "array",
    "Any": "string",
    "String": "string",
    "Bigint": "integer",
}
"""Every BFCL type name and the JSON Schema type it becomes."""


class BFCLSchemaError(ValueError):
    """A BFCL schema that cannot be converted (an unknown type, a malformed node)."""


@dataclass(frozen=True)
class ToolSpec:
    """A BFCL function as a gent tool would declare it.

    Attributes:
        name: The gent tool name (:func:`gent_bfcl.names.to_gent_name`: BFCL's own).
        bfcl_name: The BFCL function name.
        description: The function's description, as written.
        parameters: The JSON Schema of its arguments (an ``object`` schema).
    """

    name: str
    bfcl_name: str
    description: str
    parameters: dict[str, Any]

    def declaration(self) -> dict[str, Any]:
        """The tool as a gent config declares it: ``{name, description, parameters}``
        (the value of a ``tools: [{declare: ...}]`` entry).
        """
        return {"name": self.name, "description": self.description, "parameters": self.parameters}


def to_json_schema(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON Schema of a BFCL function's ``parameters`` (see the module docstring); the
    input is not changed. The walk is gent's own
    (:func:`gent_core.tools.standard_schema`), with BFCL's type table and a
    missing type read as a string.

    Raises:
        BFCLSchemaError: Naming the parameter path and what is wrong (an unknown type...).
    """
    try:
        return standard_schema(parameters, types=TYPES, untyped="string")
    except DeclarationError as error:
        message = str(error).replace("unknown type", "unknown BFCL type")
        if "must be an object schema" in message:
            message = (
                "the parameters must be a 'dict' (an object) schema, got type "
                f"{parameters.get('type')!r}"
            )
        raise BFCLSchemaError(message) from None


def to_tool_spec(function: Mapping[str, Any]) -> ToolSpec:
    """The gent tool declaration of a BFCL function doc (``name``, ``description``,
    ``parameters``).

    Raises:
        BFCLSchemaError: When the doc has no name, or its parameters cannot be converted,
            or its name makes no gent tool name (the message names the function).
    """
    name = function.get("name")
    if not isinstance(name, str):
        raise BFCLSchemaError(f"a BFCL function doc needs a 'name', got {name!r}")
    try:
        gent_name = to_gent_name(name)
        parameters = to_json_schema(function.get("parameters", {"type": "dict"}))
    except ValueError as error:
        raise BFCLSchemaError(f"function {name!r}: {error}") from None
    return ToolSpec(gent_name, name, str(function.get("description", "")), parameters)

"""Reading tool declarations (name, description, argument schema) in the shapes others write
them, for :class:`~gent_core.tools._declared.DeclaredTool`.

Accepted, alone or in a list (a file holds one of these, as JSON or YAML):

* a **function** ``{"name": ..., "description": ..., "parameters": {...}}``: OpenAI's function
  object, and the function docs of benchmarks such as BFCL;
* an **OpenAI tool** ``{"type": "function", "function": {<function>}}`` (a request's
  ``tools`` list);
* an **MCP tool** ``{"name": ..., "description": ..., "inputSchema": {...}}``;
* a **listing** ``{"tools": [...]}``: an MCP ``tools/list`` result, or a request body's tools.

The argument schema is JSON Schema. Python type names, as function docs generated from Python
code write them, are read as the JSON Schema types they stand for (:data:`PYTHON_TYPE_NAMES`:
``dict`` is ``object``, ``float`` is ``number``, ``tuple`` and ``list`` are ``array``, ``any``
is any value), at every depth (``properties``, ``items``, ``additionalProperties``); the
non-standard ``optional`` flag is dropped (``required`` says the same). Nothing else is
changed: a schema in plain JSON Schema comes out as it went in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "ACCEPTED_DECLARATIONS",
    "PYTHON_TYPE_NAMES",
    "Declaration",
    "DeclarationError",
    "load_declarations",
    "read_declarations",
    "standard_schema",
]

ACCEPTED_DECLARATIONS = (
    "a function {name, description, parameters}, an OpenAI tool {type: function, function: "
    "{...}}, an MCP tool {name, description, inputSchema}, a list of these, or a listing "
    "{tools: [...]}"
)
"""What a declaration may be, for error messages."""

_JSON_TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")

PYTHON_TYPE_NAMES: Mapping[str, str | None] = {
    **{name: name for name in _JSON_TYPES},
    "dict": "object",
    "list": "array",
    "tuple": "array",
    "str": "string",
    "int": "integer",
    "float": "number",
    "bool": "boolean",
    "any": None,
}
"""Type names read in declared schemas and the JSON Schema type each is (``None``: any value)."""

_DROPPED = frozenset({"optional"})


class DeclarationError(ValueError):
    """A declaration that cannot be read; the message says where and what is accepted."""


@dataclass(frozen=True)
class Declaration:
    """One declared tool, read.

    Attributes:
        name: The tool name, as written.
        description: What it does (``""`` when not given).
        parameters: Its argument schema, in standard JSON Schema (an ``object`` schema).
    """

    name: str
    description: str
    parameters: dict[str, Any]


def _where(path: tuple[str, ...]) -> str:
    return ".".join(path) if path else "the schema"


def _convert(
    node: Any, path: tuple[str, ...], types: Mapping[str, str | None], untyped: str | None
) -> dict[str, Any]:
    if not isinstance(node, Mapping):
        raise DeclarationError(f"{_where(path)}: a schema must be an object, got {node!r}")
    converted: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED:
            continue
        if key == "type":
            kinds = value if isinstance(value, list) else [value]
            mapped: list[str] = []
            for kind in kinds:
                if not isinstance(kind, str) or kind not in types:
                    raise DeclarationError(
                        f"{_where(path)}: unknown type {kind!r}; accepted: " + ", ".join(types)
                    )
                standard = types[kind]
                if standard is None:
                    mapped = []
                    break
                mapped.append(standard)
            if mapped:
                converted[key] = mapped if isinstance(value, list) else mapped[0]
        elif key == "properties":
            if not isinstance(value, Mapping):
                raise DeclarationError(f"{_where(path)}: 'properties' must be an object")
            converted[key] = {
                str(name): _convert(sub, (*path, str(name)), types, untyped)
                for name, sub in value.items()
            }
        elif key == "items" or (key == "additionalProperties" and isinstance(value, Mapping)):
            converted[key] = _convert(value, (*path, key), types, untyped)
        else:
            converted[key] = value
    if untyped is not None and "type" not in node:
        converted["type"] = untyped
    return converted


def standard_schema(
    schema: Mapping[str, Any],
    *,
    types: Mapping[str, str | None] = PYTHON_TYPE_NAMES,
    untyped: str | None = None,
) -> dict[str, Any]:
    """``schema`` in standard JSON Schema: every ``type`` read through ``types``, the
    ``optional`` flag dropped, at every depth; the input is not changed.

    Args:
        schema: The argument schema as declared.
        types: Type names accepted and the JSON Schema type each stands for (``None``: any
            value, the ``type`` is left out).
        untyped: The type given to a node that has none (``None``: left without one, any
            value). A benchmark whose checker reads a missing type as a string says so here.

    Raises:
        DeclarationError: For an unknown type name or a malformed node, naming its path.
    """
    converted = _convert(schema, (), types, untyped)
    kind = converted.setdefault("type", "object")
    if kind != "object":
        raise DeclarationError(f"the parameters must be an object schema, got type {kind!r}")
    converted.setdefault("properties", {})
    return converted


def _one(entry: Any, where: str) -> Declaration:
    if not isinstance(entry, Mapping):
        raise DeclarationError(f"{where}: expected {ACCEPTED_DECLARATIONS}; got {entry!r:.80}")
    if entry.get("type") == "function" and isinstance(entry.get("function"), Mapping):
        entry = entry["function"]
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        keys = ", ".join(str(key) for key in entry) or "none"
        raise DeclarationError(
            f"{where}: a declaration needs a 'name' (its keys are: {keys}); expected "
            f"{ACCEPTED_DECLARATIONS}"
        )
    description = entry.get("description") or ""
    if not isinstance(description, str):
        raise DeclarationError(f"{where} ({name}): the description must be text")
    if "parameters" in entry and "inputSchema" in entry:
        raise DeclarationError(f"{where} ({name}): give 'parameters' or 'inputSchema', not both")
    schema = entry.get("parameters", entry.get("inputSchema"))
    if schema is None:
        schema = {"type": "object", "properties": {}}
    if not isinstance(schema, Mapping):
        raise DeclarationError(f"{where} ({name}): the parameters must be a JSON Schema object")
    try:
        parameters = standard_schema(schema)
    except DeclarationError as error:
        raise DeclarationError(f"{where} ({name}): {error}") from None
    return Declaration(name, description, parameters)


def read_declarations(data: Any, *, source: str = "the declarations") -> list[Declaration]:
    """The declarations in ``data`` (parsed JSON or YAML: see the module docstring).

    Raises:
        DeclarationError: For anything else, saying where (``source``, the entry) and what
            is accepted.
    """
    if isinstance(data, Mapping) and "tools" in data and "name" not in data:
        data = data["tools"]
        source = f"{source}: tools"
    if isinstance(data, Mapping):
        return [_one(data, source)]
    if isinstance(data, list):
        return [_one(entry, f"{source}, entry {index}") for index, entry in enumerate(data, 1)]
    raise DeclarationError(f"{source}: expected {ACCEPTED_DECLARATIONS}; got {type(data).__name__}")


def load_declarations(path: str | Path) -> list[Declaration]:
    """The declarations in the JSON or YAML file at ``path`` (YAML for ``.yaml``/``.yml``).

    The file is read as configs are (:func:`gent_core._bounded.read_text_file`): its size is
    checked before it is read and the read stops at the limit (8 MiB;
    ``GENT_MAX_DECLARATION_SIZE`` changes it), and its JSON or YAML within gent's bounds.

    Raises:
        DeclarationError: When the file cannot be read or parsed, or holds no declarations
            (see :func:`read_declarations`); the message names the file.
    """
    from gent_core._bounded import DECLARATION_FILE, read_json, read_text_file, read_yaml
    from gent_core.errors import InputError

    file = Path(path)
    try:
        text = read_text_file(file, DECLARATION_FILE)
    except InputError as error:
        hint = f" ({error.hint})" if error.hint else ""
        raise DeclarationError(
            f"cannot read the tool declarations {file}: {error.problem}{hint}"
        ) from None
    try:
        if file.suffix.lower() in (".yaml", ".yml"):
            data = read_yaml(text, source=str(file))
        else:
            data = read_json(text, source=str(file))
    except InputError as error:  # names the file: "tools.json is not valid JSON: ..."
        raise DeclarationError(str(error).splitlines()[0]) from None
    return read_declarations(data, source=str(file))

"""Reading a YAML configuration into plain data, remembering where every value was written.

The text is *composed* (not loaded) with PyYAML's safe loader by the bounded reader
(:func:`gent_core._bounded.compose_yaml`: nesting, values, integer digits and finite numbers
checked before anything is built), so no Python tag is ever constructed; the node tree is
then turned into dicts, lists and scalars while recording, for every key path (``("tools",
1, "name")``), the line and column it was written at. ``${VAR}`` references are expanded in
string scalars on the way (see :mod:`gent_core._config.envvars`), and credentials are
collected with where they were written (see :mod:`gent_core._config.secrets`): values under
credential-like keys, and ``${VAR}`` expansions under such a key or of a variable whose
name is credential-like (``${OPENAI_API_KEY}``; a string holding a short one is a
credential as a whole too).

Problems (an unset variable, a duplicate key, an unsupported tag) are collected, not raised,
so the caller can report them all at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from gent_core._bounded import compose_yaml, construct_scalar, describe_yaml_error
from gent_core._config.envvars import ExpansionError, expand
from gent_core._config.secrets import MIN_TEXT_SECRET_LENGTH, is_secret_key
from gent_core.errors import InputError

__all__ = ["Document", "KeyPath", "Mark", "YAMLSyntaxError", "read_document"]

KeyPath = tuple[str | int, ...]
"""A path into the document: mapping keys and list indexes (``("tools", 1, "name")``)."""

_TAG = "tag:yaml.org,2002:"
_STR = _TAG + "str"
_PLAIN_TAGS = {_TAG + name for name in ("str", "int", "float", "bool", "null", "timestamp")}
_MERGE = _TAG + "merge"


@dataclass(frozen=True)
class Mark:
    """A 1-based line and column."""

    line: int
    column: int


class YAMLSyntaxError(Exception):
    """The text is not valid YAML, or is beyond a bound (nested too deeply...).

    Args:
        message: What is wrong (``"invalid YAML: ..."``), without quoting the text, which
            may hold secrets.
        mark: Where, when known.
        path: The key path, when known.
    """

    def __init__(self, message: str, mark: Mark | None, path: KeyPath = ()) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark
        self.path = path


@dataclass
class Document:
    """A composed document.

    Attributes:
        data: The plain data (``None`` for an empty document).
        marks: Where each key path was written (the value for scalars, the key otherwise).
        credentials: Credential values found -> the key path each was first written at
            (values under credential keys, expansions of credential-named variables).
        problems: ``(key path, message, mark)`` for every problem found while reading; the
            mark is ``None`` when the key path's own mark applies.
    """

    data: Any = None
    marks: dict[KeyPath, Mark] = field(default_factory=dict)
    credentials: dict[str, KeyPath] = field(default_factory=dict)
    problems: list[tuple[KeyPath, str, Mark | None]] = field(default_factory=list)


def _mark(node: Node) -> Mark:
    return Mark(node.start_mark.line + 1, node.start_mark.column + 1)


class _Reader:
    """Turns composed nodes into data, one document."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.environ = environ
        self.loader = yaml.SafeLoader("")
        self.document = Document()

    def problem(self, path: KeyPath, message: str, mark: Mark | None = None) -> None:
        self.document.problems.append((path, message, mark))

    def read(self, node: Node, path: KeyPath, mark: Mark, secret: bool) -> Any:
        # compose_yaml checked the tree: no deeper than MAX_DEPTH, no alias containing itself
        self.document.marks[path] = mark
        if isinstance(node, ScalarNode):
            return self.scalar(node, path, secret)
        if isinstance(node, MappingNode):
            return self.mapping(node, path, secret)
        if isinstance(node, SequenceNode):
            return self.sequence(node, path, secret)
        self.problem(path, "an unsupported YAML node")  # pragma: no cover - composer makes none
        return None

    def check_tag(self, node: Node, expected: str, path: KeyPath) -> bool:
        if node.tag == expected:
            return True
        self.problem(
            path,
            f"unsupported YAML tag {node.tag.replace(_TAG, '!!')!r}; only plain mappings, "
            "lists, strings, numbers, booleans and null are accepted",
        )
        return False

    def mapping(self, node: MappingNode, path: KeyPath, secret: bool) -> Any:
        if not self.check_tag(node, _TAG + "map", path):
            return None
        first_line: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE or not isinstance(key_node, ScalarNode):
                continue
            key = key_node.value
            line = key_node.start_mark.line + 1
            if key in first_line:
                self.problem(
                    (*path, key),
                    f"duplicate key {key!r} (first written on line {first_line[key]})",
                )
            else:
                first_line[key] = line
        try:
            self.loader.flatten_mapping(node)
        except yaml.YAMLError as error:
            self.problem(path, f"invalid merge (<<): {describe_yaml_error(error)[0]}")
            return None
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_mark = _mark(key_node)
            key = self.key(key_node, path, key_mark)
            if key is None:
                continue
            value_mark = _mark(value_node)
            use_value_mark = isinstance(value_node, ScalarNode) and value_mark.line >= key_mark.line
            result[key] = self.read(
                value_node,
                (*path, key),
                value_mark if use_value_mark else key_mark,
                secret or is_secret_key(key),
            )
        return result

    def key(self, node: Node, path: KeyPath, mark: Mark) -> str | None:
        if isinstance(node, ScalarNode) and node.tag in _PLAIN_TAGS:
            value = self.loader.construct_object(node)
            if isinstance(value, str):
                return value
        shown = repr(node.value) if isinstance(node, ScalarNode) else "a mapping or a list"
        self.problem(path, f"keys must be strings, got {shown} (quote it)", mark)
        return None

    def sequence(self, node: SequenceNode, path: KeyPath, secret: bool) -> Any:
        if not self.check_tag(node, _TAG + "seq", path):
            return None
        return [
            self.read(item, (*path, index), _mark(item), secret)
            for index, item in enumerate(node.value)
        ]

    def scalar(self, node: ScalarNode, path: KeyPath, secret: bool) -> Any:
        if node.tag not in _PLAIN_TAGS:
            self.check_tag(node, _STR, path)
            return None
        if node.tag == _STR and "$" in node.value:
            try:
                expansion = expand(node.value, self.environ)
            except ExpansionError as error:
                self.problem(path, str(error))
                return None
            if expansion.expanded:
                node = self.expanded_node(node, expansion.text)
                try:
                    value = construct_scalar(self.loader, node)
                except InputError as error:  # ${N} -> a number beyond the bounds
                    self.problem(path, error.problem)
                    return None
                found = [
                    item
                    for name, item in zip(expansion.names, expansion.values, strict=True)
                    if secret or is_secret_key(name)
                ]
                for item in found:
                    self.credential(item, path)
                # A string holding a short credential (a URL, a header) is one as a whole, so it
                # is masked where it is shown; a long one is masked inside it already.
                short = any(len(item) < MIN_TEXT_SECRET_LENGTH for item in found)
                if isinstance(value, str) and (secret or short):
                    self.credential(value, path)
                return value
        value = self.loader.construct_object(node)
        if secret and isinstance(value, str):
            self.credential(value, path)
        return value

    def credential(self, value: str, path: KeyPath) -> None:
        if value:
            self.document.credentials.setdefault(value, path)

    def expanded_node(self, node: ScalarNode, text: str) -> ScalarNode:
        """A node for the expanded text; a plain scalar is typed again (``${N}`` -> 3)."""
        tag = _STR
        if node.style is None:
            tag = self.loader.resolve(ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
        return ScalarNode(tag, text, node.start_mark, node.end_mark, style=node.style)


def read_document(text: str, environ: Mapping[str, str]) -> Document:
    """Compose ``text`` and read it into a :class:`Document`.

    Args:
        text: The YAML text (one document).
        environ: The environment ``${VAR}`` references are read from.

    Raises:
        YAMLSyntaxError: When the text is not valid YAML (with the line), holds several
            documents, or is beyond a bound of :func:`gent_core._bounded.compose_yaml`
            (nesting, values, integer digits, finite numbers, an alias containing itself).
    """
    try:
        root = compose_yaml(text, source="the document")
    except InputError as error:
        mark = Mark(error.line, error.column or 1) if error.line is not None else None
        raise YAMLSyntaxError(error.problem, mark, error.path) from None
    if root is None:
        return Document()
    reader = _Reader(environ)
    reader.document.data = reader.read(root, (), _mark(root), False)
    return reader.document

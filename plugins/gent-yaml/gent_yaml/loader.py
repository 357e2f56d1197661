"""A safe YAML composer for tool calls: YAML 1.2 core resolution and a bound on aliases.

:class:`CallLoader` is a :class:`yaml.SafeLoader` subclass used only to *compose* node trees;
values are built from the nodes by :mod:`gent_yaml.convert`, which accepts the core tags only,
so no Python object can ever be constructed (``!!python/object`` is refused).

Plain scalars resolve with the YAML 1.2 core schema rather than PyYAML's YAML 1.1 rules:
``true``/``false`` (any case variant of the spec) are booleans but ``yes``/``no``/``on``/
``off`` stay text; ``2026-01-20`` stays text (no timestamps); ``1_000`` and ``1:20`` stay
text; ``0o17`` and ``0x1F`` are integers; ``~``, ``null`` and an empty value are null.

Aliases cannot blow up: while composing, the loader tracks how many nodes each node would
expand to (aliases included) and stops at :data:`MAX_NODES` without expanding anything, so a
"billion laughs" document is refused after reading its text once. A node containing an alias
to itself is refused too.

When PyYAML has its libyaml binding, :class:`FastCallLoader` reads events with libyaml's C
parser and composes them with the same Python composer and resolver (about five times faster
than the pure-Python loader); the pure-Python :class:`CallLoader` is used otherwise.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, SequenceNode

__all__ = ["MAX_NODES", "CallLoader", "FastCallLoader", "YAMLLimitError", "compose_documents"]

MAX_NODES = 100_000
"""Most nodes a document may expand to, aliases included."""

_CORE_RESOLVERS = (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+0123456789.",
    ),
)


class YAMLLimitError(yaml.MarkedYAMLError):
    """A document expands to too many nodes through aliases, or an alias refers to itself."""


class CallLoader(yaml.SafeLoader):
    """Composes YAML documents with YAML 1.2 core resolution and a node-expansion bound.

    Args:
        stream: The YAML text.
        max_nodes: Most nodes one document may expand to.
    """

    yaml_implicit_resolvers: dict[Any, list[tuple[str, re.Pattern[str]]]] = {}  # noqa: RUF012

    def __init__(self, stream: str, max_nodes: int = MAX_NODES) -> None:
        super().__init__(stream)
        self.max_nodes = max_nodes
        self._sizes: dict[int, int] = {}

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        """Compose one node, tracking the size it expands to (see the module docs)."""
        if self.check_event(AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            target = self.anchors.get(event.anchor)
            if target is not None and id(target) not in self._sizes:
                raise YAMLLimitError(
                    None,
                    None,
                    f"the alias *{event.anchor} refers to a node that contains it",
                    event.start_mark,
                )
            aliased: Node = super().compose_node(parent, index)  # type: ignore[assignment]
            return aliased
        node: Node = super().compose_node(parent, index)  # type: ignore[assignment]
        size = 1
        if isinstance(node, SequenceNode):
            size += sum(self._sizes[id(child)] for child in node.value)
        elif isinstance(node, MappingNode):
            size += sum(self._sizes[id(key)] + self._sizes[id(value)] for key, value in node.value)
        if size > self.max_nodes:
            raise YAMLLimitError(
                None,
                None,
                f"the document expands to more than {self.max_nodes} values (through aliases)",
                node.start_mark,
            )
        self._sizes[id(node)] = size
        return node

    def compose_document(self) -> Node | None:
        """Compose one document and forget its node sizes."""
        try:
            return super().compose_document()
        finally:
            self._sizes.clear()


for _tag, _pattern, _first in _CORE_RESOLVERS:
    CallLoader.add_implicit_resolver(_tag, re.compile(_pattern), list(_first))


FastCallLoader: type[CallLoader] | None = None
""":class:`CallLoader` reading events with libyaml's C parser, or ``None`` without libyaml."""

if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    class _FastCallLoader(CParser, CallLoader):
        """:class:`CallLoader` whose events come from libyaml; composing stays in Python."""

        def __init__(self, stream: str, max_nodes: int = MAX_NODES) -> None:
            CParser.__init__(self, stream)
            Composer.__init__(self)
            self.max_nodes = max_nodes
            self._sizes = {}

        # Compose with the Python composer (bounded) rather than libyaml's own.
        check_node = Composer.check_node
        get_node = Composer.get_node
        get_single_node = Composer.get_single_node
        compose_document = CallLoader.compose_document
        compose_node = CallLoader.compose_node
        compose_scalar_node = Composer.compose_scalar_node
        compose_sequence_node = Composer.compose_sequence_node
        compose_mapping_node = Composer.compose_mapping_node

        def dispose(self) -> None:
            """Nothing to release (libyaml frees its parser with the object)."""

    FastCallLoader = _FastCallLoader


def compose_documents(
    text: str, *, max_nodes: int = MAX_NODES, fast: bool = True
) -> list[Node | None]:
    """Compose every document of ``text`` into node trees (``None`` for an empty one).

    Args:
        text: The YAML text.
        max_nodes: Most nodes one document may expand to, aliases included.
        fast: Use libyaml's parser when available (:data:`FastCallLoader`).

    Raises:
        yaml.YAMLError: Invalid YAML, or :class:`YAMLLimitError` when a bound is exceeded.
    """
    loader_type = FastCallLoader if fast and FastCallLoader is not None else CallLoader
    loader = loader_type(text, max_nodes=max_nodes)
    try:
        documents: list[Node | None] = []
        while loader.check_node():
            documents.append(loader.get_node())
        return documents
    finally:
        loader.dispose()

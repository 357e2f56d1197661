"""The ``yaml`` tool chain: tool calls written as YAML, results written back as YAML."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gent_core.guidance import call_guidance
from gent_core.toolchain import ToolCall, ToolChain
from gent_core.tools.base import Tool
from gent_yaml.calls import read_yaml_calls
from gent_yaml.dump import dump_yaml
from gent_yaml.loader import MAX_NODES
from gent_yaml.write import format_yaml_calls

if TYPE_CHECKING:
    from gent_core.grammar import GrammarBuilder

__all__ = ["YAMLToolChain"]


class YAMLToolChain(ToolChain):
    """Tool calls written as YAML: a mapping with ``tool`` and ``args``, or a list of them.

    YAML is loaded safely (core tags only, alias expansion bounded), resolved with the YAML
    1.2 core schema, and an argument the tool's schema types as a string keeps the text the
    model wrote (``version: 1.10`` stays ``"1.10"``). Multi-line arguments are written as
    block scalars (``content: |``). Results are written as YAML (a string result as it is).

    Args:
        tools: The tools the model may call.
        section_name: The section the calls are written in.
        max_nodes: Most values one YAML document may expand to through aliases.
    """

    def __init__(
        self,
        tools: Sequence[Tool] = (),
        *,
        section_name: str = "action",
        max_nodes: int = MAX_NODES,
    ) -> None:
        super().__init__(tools, section_name=section_name)
        self.max_nodes = max_nodes

    @property
    def guidance(self) -> str:
        """The YAML call syntax with an example, then every tool with its arguments."""
        return call_guidance(
            self,
            syntax='Call tools by writing YAML: a mapping with "tool" (the tool\'s name) and '
            '"args" (its arguments), ',
            several="write a list of calls",
            written="the YAML",
            notes=[
                'Write multi-line text as a block: "content: |" followed by the lines, indented.'
            ],
        )

    def _schema_of(self, name: str) -> dict[str, Any] | None:
        tool = self.get_tool(name)
        return tool.parameters if tool is not None else None

    def parse(self, content: str) -> list[ToolCall]:
        """Read the YAML calls in ``content`` (ids ``call_0``, ``call_1``...).

        Arguments of known tools are read with the tool's schema (strings stay verbatim);
        see :func:`gent_yaml.calls.read_yaml_calls`.

        Raises:
            TruncatedCallError: A call was cut off.
            InvalidYAMLError: Invalid or unsafe YAML, or no call.
            MissingToolNameError: A call does not name its tool.
        """
        return read_yaml_calls(
            content, schemas=self._schema_of, section=self.name, max_nodes=self.max_nodes
        )

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        """One call as a mapping, several as a block list, argument values in JSON flow
        syntax and multi-line strings as literal blocks (see
        :func:`gent_yaml.write.format_yaml_calls`).

        Raises:
            ValueError: For a value YAML cannot carry exactly (NaN, infinity).
        """
        return format_yaml_calls(calls)

    def grammar_calls(self, builder: GrammarBuilder) -> str:
        """One call mapping, or a block list of up to ``builder.max_calls``, of the chain's
        tools with arguments valid for their schemas (see
        :func:`gent_yaml.grammar.yaml_calls`).
        """
        from gent_yaml.grammar import yaml_calls

        return yaml_calls(builder, self.tools)

    def format_output(self, output: Any) -> str:
        """A string as it is; anything else as YAML (block style for multi-line text)."""
        if isinstance(output, str):
            return output
        return dump_yaml(output)

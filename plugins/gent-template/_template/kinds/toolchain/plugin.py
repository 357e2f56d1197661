"""The ``template`` tool chain: one call per line, a name and JSON arguments.

For example::

    calculator {"expression": "6 * 7"}
    current_time {"timezone": "Asia/Tokyo"}

Blank lines are ignored. A line that is not a name followed by one JSON object is an error
saying so, so a call cut off by the end of the output is never run. Replace this example with
your own call syntax.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gent_core import hookimpl
from gent_core.errors import InvalidJSONError, ParseError
from gent_core.guidance import for_example, guidance_calls
from gent_core.toolchain import ToolCall, ToolChain

if TYPE_CHECKING:
    from gent_core.grammar import GrammarBuilder

__all__ = ["TemplateChain", "gent_register_toolchains"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_:.-]*")


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


class TemplateChain(ToolChain):
    """Tool calls written one per line: ``name {"arg": value}``."""

    @property
    def guidance(self) -> str:
        """The call syntax, an example, and the tools with their arguments."""
        examples = guidance_calls(self)  # one call, then two: how to write several
        lines = [
            "Call tools here, one call per line: the tool's name, a space, then its arguments "
            f"as one JSON object on the same line, {for_example(self, examples)}",
            "",
            self.format_calls(examples[:1]),
            "",
            "To make several calls in one step, write one per line:",
            "",
            self.format_calls(examples),
            "",
            "Tools:",
            self.describe_tools(),
        ]
        return "\n".join(lines) if self.tools else "No tools are available."

    def parse(self, content: str) -> list[ToolCall]:
        """Read one call per non-blank line.

        Raises:
            ParseError: For a line that is not a tool name followed by a JSON object (a call
                cut off at the end of the output is such a line).
        """
        calls: list[ToolCall] = []
        for number, line in enumerate(content.split("\n"), start=1):
            line = line.strip()
            if not line:
                continue
            match = _NAME.match(line)
            if match is None:
                raise ParseError(
                    f"line {number} does not start with a tool name: {line[:40]!r}",
                    hint='Write each call as: tool_name {"argument": "value"}',
                )
            try:
                args = json.loads(line[match.end() :], parse_constant=_no_constants)
            except ValueError as error:
                raise InvalidJSONError(
                    f"the arguments of {match.group()!r} on line {number} are not one JSON "
                    f"object: {error}",
                    hint='Write each call as: tool_name {"argument": "value"}',
                ) from None
            if not isinstance(args, dict):
                raise InvalidJSONError(
                    f"the arguments of {match.group()!r} on line {number} must be a JSON "
                    f"object, got {type(args).__name__}",
                )
            calls.append(ToolCall(match.group(), args, f"call_{len(calls)}"))
        return calls

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        """Write ``calls`` one per line (the exact inverse of :meth:`parse`).

        Raises:
            ValueError: For a tool name this syntax cannot write.
        """
        lines = []
        for call in calls:
            if not _NAME.fullmatch(call.tool):
                raise ValueError(f"{call.tool!r} cannot be written as a tool name")
            arguments = json.dumps(call.args, ensure_ascii=False, allow_nan=False)
            lines.append(f"{call.tool} {arguments}")
        return "\n".join(lines)

    def grammar_calls(self, builder: GrammarBuilder) -> str | None:
        """The calls as a grammar: each line one of the tools, with valid arguments."""
        from gent_core.grammar import JSONSchemaConverter, arguments_schema, repeat_calls

        class OneLineJSON(JSONSchemaConverter):
            """JSON whose white space between tokens is at most a space: a call is one line."""

            @property
            def ws(self) -> str:
                return self.builder.add(f"{self.prefix}line-ws", '| " "')

        if not self.tools:
            return None
        converter = OneLineJSON(builder, flavor="json")
        alternatives = []
        for tool in self.tools:
            args = converter.convert(arguments_schema(tool), f"{tool.name}-args")
            alternatives.append(builder.add(f"{tool.name}-call", f'"{tool.name} " {args}'))
        call = builder.add("call", " | ".join(alternatives))
        return builder.add("calls", repeat_calls(call, r'"\n"', max_calls=builder.max_calls))


@hookimpl
def gent_register_toolchains() -> Mapping[str, Callable[..., ToolChain]]:
    """Supply the ``template`` tool chain."""
    return {"template": TemplateChain}

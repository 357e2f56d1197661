"""The ``pythonic`` tool chain: tool calls written as Python calls with literal arguments."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gent_core.guidance import call_guidance
from gent_core.toolchain import ToolCall, ToolChain
from gent_core.tools.base import Tool
from gent_pythonic.reader import MAX_CHARS, read_python_calls
from gent_pythonic.signature import describe_python_tools, parameter_order
from gent_pythonic.writer import write_calls

if TYPE_CHECKING:
    from gent_core.grammar import GrammarBuilder

__all__ = ["PythonicToolChain"]


class PythonicToolChain(ToolChain):
    """Tool calls written as Python calls, one per line: ``calculator(expression="17 * 23")``.

    This is the "pythonic" style Llama 3.2 and several small models write; their bracketed
    list ``[a(x=1), b(y="2")]`` is read too. Calls are parsed with :mod:`ast` and their
    arguments must be literals (strings, numbers, ``True``/``False``/``None`` or
    ``true``/``false``/``null``, lists, tuples, dicts): nothing is ever evaluated, and
    anything else (a name, ``os.system``, a nested call, an operator, a comprehension, a
    lambda, an f-string, ``*args``, ``**kwargs``) is an error telling the model what was
    found where. See :func:`gent_pythonic.reader.read_python_calls`.

    Results are written back as JSON, like the ``json`` chain does (a string result as it
    is): tool outputs are data, and a value copied from a result into a call still parses
    (``true``, ``null`` are accepted).

    Args:
        tools: The tools the model may call.
        section_name: The section the calls are written in.
        positional: Accept positional arguments, mapped to the parameters in the order the
            signatures in the guidance show (required first); ``False``: every argument must
            be named.
        max_chars: Most characters of an action read.
    """

    def __init__(
        self,
        tools: Sequence[Tool] = (),
        *,
        section_name: str = "action",
        positional: bool = True,
        max_chars: int = MAX_CHARS,
    ) -> None:
        if not isinstance(positional, bool):
            raise ValueError(f"positional must be true or false, got {positional!r}")
        if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 1:
            raise ValueError(f"max_chars must be a whole number of at least 1, got {max_chars!r}")
        super().__init__(tools, section_name=section_name)
        self.positional = positional
        self.max_chars = max_chars

    @property
    def guidance(self) -> str:
        """The call syntax with examples, the accepted values, then every tool as a Python
        signature.
        """
        return call_guidance(
            self,
            syntax="Call tools by writing Python function calls with keyword arguments, ",
            several="write one call per line",
            written="the calls",
            notes=[
                'Argument values are literals: "text" in quotes, numbers, True, False, None, '
                "lists [...] and dicts {...}. Nothing is evaluated: no variables, operators or "
                "nested calls. Leave out an argument shown with a default to use it."
            ],
            tool_list=describe_python_tools(self.tools),
        )

    def parse(self, content: str) -> list[ToolCall]:
        """Read the calls in ``content`` (ids ``call_0``, ``call_1``...).

        Code fences, prose lines before, between and after the calls, comments and Windows
        line ends are accepted; see :mod:`gent_pythonic.scanner` for what is a call.

        Raises:
            TruncatedCallError: A call (or a bracketed list of calls) was cut off.
            PythonCallError: Anything that is not a literal-only call, with what was found
                and where; or prose but no call.
        """
        tools = {tool.name: parameter_order(tool.parameters or {}) for tool in self.tools}
        return read_python_calls(
            content,
            tools=tools,
            positional=self.positional,
            section=self.name,
            max_chars=self.max_chars,
        )

    def _ordered(self, call: ToolCall) -> ToolCall:
        """``call`` with its arguments in the tool's signature order (unknown ones after)."""
        tool = self.get_tool(call.tool)
        if tool is None:
            return call
        order = [name for name in parameter_order(tool.parameters or {}) if name in call.args]
        rest = [name for name in call.args if name not in set(order)]
        args = {name: call.args[name] for name in [*order, *rest]}
        return ToolCall(call.tool, args, call.id)

    def format_calls(self, calls: Sequence[ToolCall]) -> str:
        """Every call on a line of its own, ``name(key=value, ...)``, arguments of a known
        tool in its signature order (see :mod:`gent_pythonic.writer`).

        Raises:
            ValueError: A tool name that cannot be called, or a value that has no literal
                (``NaN``, a set, an object...).
        """
        return write_calls([self._ordered(call) for call in calls])

    def grammar_calls(self, builder: GrammarBuilder) -> str | None:
        """One to ``builder.max_calls`` calls, one per line, of the chain's tools with
        arguments valid for their schemas (see :func:`gent_pythonic.grammar.python_calls`);
        ``None`` without tools.
        """
        if not self.tools:
            return None
        from gent_pythonic.grammar import python_calls

        return python_calls(builder, self.tools)

"""Tools declared from a schema alone: :class:`DeclaredTool`.

A declared tool is a name, a description and a JSON Schema of its arguments, as OpenAI
function calling, an MCP server's ``tools/list`` or a benchmark's function docs give them. No
code of the user's runs: a call is checked against the schema, then either answered with a
fixed stub result (a dry run of a prompt) or recorded and the run stopped after the step
(evaluation: what the model called, with which arguments, is the outcome). Its arguments are
the schema's properties, whatever their names: nothing is injected (a property called
``context`` or ``working_directory`` is an argument like any other).

::

    from gent_core.tools import DeclaredTool

    factorial = DeclaredTool(
        "math.factorial",
        "Calculate the factorial of a number.",
        {"type": "object", "properties": {"number": {"type": "integer"}}, "required": ["number"]},
        stop=True,
    )

Configs declare them with ``tools: [{declare: {...}}]`` (see
:mod:`gent_core.tools._declarations` for the accepted shapes and files).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from gent_core.tools._arguments import arguments_error, not_an_object_problem
from gent_core.tools._describe import describe_signature
from gent_core.tools._function import check_tool_name
from gent_core.tools._validator import SchemaValidator
from gent_core.tools.base import Tool, ToolExample, check_examples
from gent_core.tools.result import ToolResult

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext

__all__ = ["DEFAULT_STUB_RESULT", "DeclaredTool"]

DEFAULT_STUB_RESULT = "OK"
"""What a declared tool answers when its declaration gives no ``result``."""

_EMPTY_OBJECT: dict[str, Any] = {"type": "object", "properties": {}}


class DeclaredTool(Tool):
    """A tool made from a name, a description and an argument schema, with no code behind it.

    A call's arguments are validated against ``parameters`` (coerced as for every gent tool,
    defaults filled in); then the tool returns ``result``, or, with ``stop``, returns it and
    asks the agent to stop the run after this step (:attr:`ToolResult.stop_run
    <gent_core.tools.result.ToolResult.stop_run>`: the run ends with the stop reason
    ``"tool_stop"``, its last step holding the calls as the model wrote them).

    Args:
        name: The tool name (:data:`~gent_core.tools._function.TOOL_NAME_PATTERN`: dots
            allowed, ``math.factorial``).
        description: What the tool does, for the model.
        parameters: The JSON Schema of the arguments (an ``object`` schema; ``None`` or
            ``{}``: no arguments).
        result: What every call returns (any JSON value; :data:`DEFAULT_STUB_RESULT` when
            ``None``).
        stop: Stop the run after a step that called this tool successfully.
        examples: Worked examples for few-shot prompts (their arguments are checked).
        timeout: Seconds a call may take (``None``: the run's default).

    Raises:
        ValueError: For an invalid name, a schema that is not an object schema or that the
            validator cannot use, or an invalid example (the message says which).
    """

    def __init__(
        self,
        name: str,
        description: str = "",
        parameters: Mapping[str, Any] | None = None,
        *,
        result: Any = None,
        stop: bool = False,
        examples: Iterable[ToolExample | Mapping[str, Any]] = (),
        timeout: float | None = None,
    ) -> None:
        self.name = check_tool_name(name)
        if not isinstance(description, str):
            raise ValueError(
                f"tool {name!r}: the description must be text, not {type(description).__name__}"
            )
        self.description = description
        schema = dict(parameters) if parameters else dict(_EMPTY_OBJECT)
        kind = schema.get("type", "object")
        if kind != "object":
            raise ValueError(
                f"tool {name!r}: the parameters must be an object schema "
                f'({{"type": "object", "properties": {{...}}}}), not type {kind!r}'
            )
        schema.setdefault("type", "object")
        schema.setdefault("properties", {})
        try:
            self._validator = SchemaValidator(schema)
        except ValueError as error:
            raise ValueError(f"tool {name!r}: its parameters cannot be used: {error}") from None
        self._parameters = schema
        self.result = DEFAULT_STUB_RESULT if result is None else result
        self.stop = bool(stop)
        self.timeout = timeout
        self.examples = check_examples(self.name, examples, self.validate_arguments)

    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON Schema of the arguments (treat it as read-only)."""
        return self._parameters

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and coerce ``arguments`` against :attr:`parameters`.

        Raises:
            InvalidToolArgumentsError: Naming each bad, unknown or missing argument and what
                is accepted, with the tool's signature as a hint.
        """
        candidate: object = arguments
        if not isinstance(candidate, Mapping):
            problems = [not_an_object_problem(candidate)]
        else:
            value, problems = self._validator.validate(dict(candidate))
            if not problems:
                return dict(value)
        raise arguments_error(self.name, problems, signature=describe_signature(self))

    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        """Return the stub result (and, with ``stop``, ask the run to stop after this step)."""
        del arguments, context
        return ToolResult(self.result, stop_run=self.stop)

    def __repr__(self) -> str:
        return f"<DeclaredTool {self.name!r}{' stop' if self.stop else ''}>"

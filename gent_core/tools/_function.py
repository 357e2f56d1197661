"""Tools made from typed functions: the :func:`tool` decorator and :class:`FunctionTool`.

::

    from gent_core.tools import tool

    @tool
    def add(a: int, b: Annotated[int, Field(description="The second number.")] = 1) -> int:
        \"\"\"Add two integers.\"\"\"
        return a + b

    @tool(name="fetch", timeout=10)
    async def fetch_page(url: str, context: ExecutionContext) -> str: ...

Everything is computed once, when the function is decorated (see
:mod:`gent_core.tools._signature`): the pydantic model that validates and coerces arguments,
the JSON Schema, the description. A call then costs one pydantic validation and one
function call (sync functions run in a worker thread, :mod:`gent_core.tools._threads`).
"""

from __future__ import annotations

import contextlib
import copy
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, overload

from pydantic import ValidationError

from gent_core._pydantic_patterns import validate_python
from gent_core.tools._arguments import arguments_error, not_an_object_problem
from gent_core.tools._describe import describe_signature
from gent_core.tools._pydantic_errors import problems_from_validation_error
from gent_core.tools._signature import FunctionSpec, analyse_function
from gent_core.tools._threads import run_sync
from gent_core.tools.base import Tool, ToolExample, check_examples
from gent_core.tools.result import ToolResult

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext

__all__ = ["TOOL_NAME_PATTERN", "FunctionTool", "check_tool_name", "tool"]

TOOL_NAME_PATTERN = re.compile(
    r"(?=.{1,64}\Z)[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*"
)
"""What a tool name may be: 1-64 letters, digits, ``_``, ``-`` and ``.``, starting with a
letter or underscore, and after each dot (``math.factorial``, as Python paths and MCP servers
name tools). ``:`` is reserved for qualified names such as
``plugin:tool``. Every shipped format and tool chain writes and reads such names as they are;
a syntax that could not hold one maps it in its own plugin, so the model sees the name the
user wrote."""


def check_tool_name(name: object) -> str:
    """Return ``name`` if it is a valid tool name.

    Raises:
        ValueError: Saying what a tool name may contain.
    """
    if not isinstance(name, str) or TOOL_NAME_PATTERN.fullmatch(name) is None:
        raise ValueError(
            f"invalid tool name {name!r}: use 1-64 letters, digits, '_', '-' or '.', "
            "starting with a letter or '_', and after each dot (math.factorial)"
        )
    return name


class FunctionTool(Tool):
    """A tool that calls a typed function (sync or async).

    Usually made with :func:`tool`. The function's parameters are the tool's arguments,
    except two that gent injects: one annotated
    :class:`~gent_core.context.ExecutionContext` (receives the call's context) and one named
    ``working_directory`` (receives ``context.working_directory``).

    Args:
        function: The function.
        name: The tool's name (defaults to the function's name).
        description: What the tool does (defaults to the docstring without its Args
            section).
        timeout: Seconds a call may take (enforced by the tool chain); ``None`` uses the
            run's default.
        namespace: Extra names for resolving string annotations.
        examples: Worked examples for few-shot prompts
            (:class:`~gent_core.tools.base.ToolExample`, or mappings with its keys).

    Raises:
        TypeError: The function cannot be a tool (``*args``, unsupported types...).
        ValueError: The name is not a valid tool name, or an example's arguments are not
            valid for the tool.
    """

    def __init__(
        self,
        function: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        timeout: float | None = None,
        namespace: Mapping[str, Any] | None = None,
        examples: Iterable[ToolExample | Mapping[str, Any]] = (),
    ) -> None:
        self.name = check_tool_name(name if name is not None else getattr(function, "__name__", ""))
        self.function = function
        self.timeout = timeout
        self._spec: FunctionSpec = analyse_function(
            function, tool_name=self.name, namespace=namespace
        )
        self.description = description if description is not None else self._spec.description
        self._receiver: Any = None
        self._attribute: str | None = None
        self.examples: tuple[ToolExample, ...] = check_examples(
            self.name, examples, self.validate_arguments
        )

    @property
    def parameters(self) -> dict[str, Any]:
        """The JSON Schema of the arguments (shared: treat it as read-only)."""
        return self._spec.schema

    @property
    def is_async(self) -> bool:
        """Whether the function is a coroutine function (otherwise it runs in a thread)."""
        return self._spec.is_async

    @property
    def is_method(self) -> bool:
        """Whether the function's first parameter is ``self`` (a :class:`Toolbox` method)."""
        return self._spec.has_receiver

    # ------------------------------------------------------------------ calling

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and coerce ``arguments`` (``"7"`` for an ``int`` becomes ``7``).

        Returns:
            Every argument by name, defaults filled in, converted to the annotated types
            (nested pydantic models become model instances).

        Raises:
            InvalidToolArgumentsError: Naming each bad, unknown or missing argument and what
                is accepted, with the tool's signature as a hint.
        """
        if not isinstance(arguments, Mapping):
            raise arguments_error(
                self.name, [not_an_object_problem(arguments)], signature=describe_signature(self)
            )
        try:
            validated = validate_python(self._spec.model, arguments)
        except ValidationError as error:
            problems = problems_from_validation_error(error, self._spec.schema)
            raise arguments_error(self.name, problems, signature=describe_signature(self)) from None
        values = validated.__dict__
        return {argument: values[field] for field, argument in self._spec.fields}

    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        """Call the function with validated ``arguments`` and the injected parameters.

        A sync function runs in a worker thread; an exception it raises propagates (the tool
        chain turns it into an error result). A plain return value is wrapped in a
        :class:`ToolResult`; a returned :class:`ToolResult` is passed through.

        Raises:
            TypeError: The tool is a method that was not taken from an instance.
        """
        if self._spec.has_receiver and self._receiver is None:
            raise TypeError(
                f"tool {self.name!r} is a method: take it from an instance "
                "(for example MyToolbox(...).tools())"
            )
        positional: list[Any] = [self._receiver] if self._spec.has_receiver else []
        keywords: dict[str, Any] = {}
        for plan in self._spec.plans:
            if plan.source == "argument":
                value = arguments[plan.name]
            elif plan.source == "context":
                value = context
            elif plan.source == "working_directory":
                value = context.working_directory
            else:
                value = str(context.working_directory)
            if plan.positional:
                positional.append(value)
            else:
                keywords[plan.name] = value
        if self._spec.is_async:
            result = await self.function(*positional, **keywords)
        else:
            result = await run_sync(self.function, *positional, **keywords)
        return ToolResult.wrap(result)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the underlying function directly (no validation, no injection)."""
        if self._spec.has_receiver and self._receiver is not None:
            return self.function(self._receiver, *args, **kwargs)
        return self.function(*args, **kwargs)

    # ------------------------------------------------------------------ methods

    def bind(self, receiver: Any, *, name: str | None = None) -> FunctionTool:
        """Return a copy of this method tool bound to ``receiver`` (the ``self`` argument).

        The copy shares the validation model and schema, so binding is cheap.

        Args:
            receiver: The instance the method belongs to.
            name: A new name for the bound tool.
        """
        if not self._spec.has_receiver:
            raise TypeError(f"tool {self.name!r} is not a method (its first parameter is not self)")
        bound = copy.copy(self)
        bound._receiver = receiver
        if name is not None:
            bound.name = check_tool_name(name)
        return bound

    def __set_name__(self, owner: type, name: str) -> None:
        self._attribute = name

    def __get__(self, instance: object | None, owner: type | None = None) -> FunctionTool:
        """Accessed on an instance, a method tool is bound to it (and cached there)."""
        if instance is None or not self._spec.has_receiver or self._receiver is not None:
            return self
        bound = self.bind(instance)
        if self._attribute is not None:
            with contextlib.suppress(TypeError):  # no __dict__ (slots): bind on each access
                vars(instance)[self._attribute] = bound
        return bound


@overload
def tool(
    function: Callable[..., Any],
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    timeout: float | None = None,
    examples: Iterable[ToolExample | Mapping[str, Any]] = (),
) -> FunctionTool: ...


@overload
def tool(
    function: None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    timeout: float | None = None,
    examples: Iterable[ToolExample | Mapping[str, Any]] = (),
) -> Callable[[Callable[..., Any]], FunctionTool]: ...


def tool(
    function: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    timeout: float | None = None,
    examples: Iterable[ToolExample | Mapping[str, Any]] = (),
) -> FunctionTool | Callable[[Callable[..., Any]], FunctionTool]:
    """Turn a typed function (sync or async) into a :class:`FunctionTool`.

    Use it bare (``@tool``) or with options (``@tool(name="add", timeout=5)``).

    Args:
        function: The function (when used bare).
        name: The tool's name; defaults to the function's name.
        description: What the tool does; defaults to the docstring without its Args section.
        timeout: Seconds a call may take; ``None`` uses the run's default.
        examples: Worked examples for few-shot prompts: each a
            :class:`~gent_core.tools.base.ToolExample` (task, arguments, the true result, an
            answer restating it) or a mapping with those keys. Their arguments are checked
            against the tool's schema here.

    Returns:
        The tool, or a decorator that makes one.

    Raises:
        TypeError: The function cannot be a tool (``*args``, unsupported types...).
        ValueError: The name is not a valid tool name, or an example is not valid.
    """
    if function is not None:
        return FunctionTool(
            function,
            name=name,
            description=description,
            timeout=timeout,
            namespace=sys._getframe(1).f_locals,
            examples=examples,
        )

    def decorate(target: Callable[..., Any]) -> FunctionTool:
        return FunctionTool(
            target,
            name=name,
            description=description,
            timeout=timeout,
            namespace=sys._getframe(1).f_locals,
            examples=examples,
        )

    return decorate

"""Reading a typed function into a tool specification, once, at decoration time.

:func:`analyse_function` looks at a function's signature, type hints and docstring and
builds everything a :class:`~gent_core.tools.FunctionTool` needs per call:

* the pydantic model that validates and coerces the model's arguments (built once);
* the tidy JSON Schema of the arguments (:mod:`gent_core.tools._schema`);
* how to call the function: which parameters come from the arguments and which the
  framework injects (a parameter annotated :class:`~gent_core.context.ExecutionContext`
  receives the context; a parameter named ``working_directory`` receives
  ``context.working_directory``, as a :class:`~pathlib.Path`, or a ``str`` if so annotated);
* whether the first parameter is a method receiver (``self``), for :class:`Toolbox` methods.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import NoneType, UnionType
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from gent_core.context import ExecutionContext
from gent_core.tools._docstrings import parse_docstring
from gent_core.tools._schema import clean_schema

__all__ = ["FunctionSpec", "ParameterPlan", "analyse_function"]

ParameterSource = Literal["argument", "context", "working_directory", "working_directory_str"]

_CONTEXT_NAME = re.compile(r"(?:[\w.]+\.)?ExecutionContext(?:\s*\|\s*None)?")

_CONFIG = ConfigDict(extra="forbid", coerce_numbers_to_str=True, protected_namespaces=())


@dataclass(frozen=True)
class ParameterPlan:
    """How one parameter of the function gets its value.

    Attributes:
        name: The parameter's name (also the argument's name in the schema).
        source: ``"argument"`` (from the model's arguments), ``"context"`` (the
            :class:`~gent_core.context.ExecutionContext`), ``"working_directory"`` (a
            :class:`~pathlib.Path`) or ``"working_directory_str"`` (the same, as ``str``).
        positional: Whether it must be passed positionally (a positional-only parameter).
    """

    name: str
    source: ParameterSource
    positional: bool


@dataclass(frozen=True)
class FunctionSpec:
    """Everything a function tool needs, computed once.

    Attributes:
        plans: One entry per parameter (the receiver excluded), in signature order.
        model: The pydantic model validating the arguments; its fields are named
            ``a0, a1...`` with the argument names as aliases (so no argument name can clash
            with pydantic's own attributes).
        fields: ``(field name, argument name)`` pairs, in signature order.
        schema: The tidy JSON Schema of the arguments.
        description: The docstring without its argument sections.
        has_receiver: Whether the first parameter is ``self`` (a method of a class).
        is_async: Whether the function is a coroutine function.
    """

    plans: tuple[ParameterPlan, ...]
    model: type[BaseModel]
    fields: tuple[tuple[str, str], ...]
    schema: dict[str, Any]
    description: str
    has_receiver: bool
    is_async: bool


def _strip_optional(annotation: Any) -> Any:
    """``X | None`` -> ``X``; ``Annotated[X, ...]`` -> ``X``; anything else unchanged."""
    if typing.get_origin(annotation) is Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) in (Union, UnionType):
        members = [arg for arg in typing.get_args(annotation) if arg is not NoneType]
        if len(members) == 1:
            return members[0]
    return annotation


def _is_context(annotation: Any) -> bool:
    if isinstance(annotation, str):
        return _CONTEXT_NAME.fullmatch(annotation) is not None
    target = _strip_optional(annotation)
    return isinstance(target, type) and issubclass(target, ExecutionContext)


def _resolve_hints(
    function: Callable[..., Any], parameters: list[inspect.Parameter], namespace: Mapping[str, Any]
) -> dict[str, Any]:
    """Resolve annotations (strings under ``from __future__ import annotations``).

    An annotation that cannot be resolved is left as its string; only an unresolvable
    ``ExecutionContext`` (imported under ``TYPE_CHECKING``) is acceptable as such.
    """
    target = getattr(function, "__func__", function)
    try:
        resolved = typing.get_type_hints(target, localns=dict(namespace), include_extras=True)
    except Exception:  # noqa: BLE001 - fall back to one parameter at a time
        pass
    else:
        defaults = {parameter.name: parameter.default for parameter in parameters}
        return {
            name: _without_implicit_optional(hint) if defaults.get(name, 0) is None else hint
            for name, hint in resolved.items()
        }
    globalns = getattr(inspect.unwrap(target), "__globals__", {})
    hints: dict[str, Any] = {}
    for parameter in parameters:
        annotation = parameter.annotation
        if isinstance(annotation, str):
            with contextlib.suppress(Exception):  # reported later unless it is the context
                annotation = eval(annotation, globalns, dict(namespace))
        if annotation is not inspect.Parameter.empty:
            hints[parameter.name] = annotation
    return hints


def _without_implicit_optional(hint: Any) -> Any:
    """``hint`` without the ``Optional[...]`` that Python 3.10's ``get_type_hints`` wraps
    around the annotation of a parameter whose default is ``None`` (3.11 stopped doing so):
    ``Optional[Annotated[str | None, Field(...)]]`` is ``Annotated[str | None, Field(...)]``,
    so its description and schema are the same on every Python.
    """
    if typing.get_origin(hint) is not typing.Union:
        return hint
    members = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    if len(members) == 1 and typing.get_origin(members[0]) is Annotated:
        inner = typing.get_args(members[0])[0]
        if type(None) in typing.get_args(inner):
            return members[0]
    return hint


def _has_description(annotation: Any, default: Any) -> bool:
    infos = [default] if isinstance(default, FieldInfo) else []
    if typing.get_origin(annotation) is Annotated:
        infos.extend(meta for meta in annotation.__metadata__ if isinstance(meta, FieldInfo))
    return any(info.description for info in infos)


def _plan(parameter: inspect.Parameter, annotation: Any, tool_name: str) -> ParameterPlan | None:
    """Return the plan of an injected parameter, or ``None`` for a model argument."""
    positional = parameter.kind is inspect.Parameter.POSITIONAL_ONLY
    if parameter.name == "working_directory":
        target = _strip_optional(annotation)
        if target in (Path, inspect.Parameter.empty, Any, "Path", "pathlib.Path"):
            return ParameterPlan(parameter.name, "working_directory", positional)
        if target in (str, "str"):
            return ParameterPlan(parameter.name, "working_directory_str", positional)
        raise TypeError(
            f"tool {tool_name!r}: parameter 'working_directory' is injected by gent and must be "
            f"annotated Path or str, not {annotation!r}"
        )
    if _is_context(annotation):
        return ParameterPlan(parameter.name, "context", positional)
    if isinstance(annotation, str):
        raise TypeError(
            f"tool {tool_name!r}: cannot resolve the annotation {annotation!r} of parameter "
            f"{parameter.name!r}; import that type at module level (not under TYPE_CHECKING)"
        )
    return None


def _field(
    parameter: inspect.Parameter, annotation: Any, described: Mapping[str, str]
) -> tuple[Any, Any]:
    """The pydantic field of one argument: its type (``Any`` when not annotated) and its
    ``Field`` (default, the parameter's name as alias, and the docstring's description of it
    when the annotation gives none).
    """
    if annotation is inspect.Parameter.empty:
        annotation = Any
    default = parameter.default
    if default is inspect.Parameter.empty:
        default = PydanticUndefined
    if isinstance(default, FieldInfo):
        annotation, default = Annotated[annotation, default], PydanticUndefined
    extra: dict[str, Any] = {}
    if not _has_description(annotation, default) and parameter.name in described:
        extra["description"] = described[parameter.name]
    return annotation, Field(default, alias=parameter.name, **extra)


def _arguments_model(
    function: Callable[..., Any], tool_name: str, definitions: dict[str, Any]
) -> tuple[type[BaseModel], dict[str, Any]]:
    """The pydantic model of the arguments (fields ``definitions``) and its JSON schema.

    Raises:
        TypeError: When pydantic cannot build either (a type it cannot validate).
    """
    try:
        model: type[BaseModel] = create_model(
            f"{tool_name}_arguments",
            __config__=_CONFIG,
            __module__=getattr(function, "__module__", None) or __name__,
            **definitions,
        )
        schema = clean_schema(model.model_json_schema())
    except Exception as error:  # any pydantic failure is the author's to fix
        raise TypeError(f"tool {tool_name!r}: cannot build the argument schema: {error}") from error
    return model, schema


def analyse_function(
    function: Callable[..., Any],
    *,
    tool_name: str,
    namespace: Mapping[str, Any] | None = None,
) -> FunctionSpec:
    """Read ``function`` into a :class:`FunctionSpec`.

    Args:
        function: A sync or async function (or a method, whose first parameter is ``self``).
        tool_name: The tool's name, for error messages and the model's name.
        namespace: Extra names to resolve string annotations with (the decorating scope's
            locals, for types defined inside a function).

    Raises:
        TypeError: For ``*args``/``**kwargs``, a generator, an unresolvable annotation or a
            type pydantic cannot validate.
    """
    if inspect.isasyncgenfunction(function) or inspect.isgeneratorfunction(function):
        raise TypeError(f"tool {tool_name!r}: a tool function must return a value, not yield")
    parameters = list(inspect.signature(function).parameters.values())
    has_receiver = bool(parameters) and parameters[0].name == "self"
    if has_receiver:
        parameters = parameters[1:]
    hints = _resolve_hints(function, parameters, namespace or {})
    docstring = parse_docstring(inspect.getdoc(function))
    plans: list[ParameterPlan] = []
    fields: list[tuple[str, str]] = []
    definitions: dict[str, Any] = {}
    for parameter in parameters:
        if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            raise TypeError(
                f"tool {tool_name!r}: *args and **kwargs are not supported; every argument "
                "must be a named parameter"
            )
        annotation = hints.get(parameter.name, parameter.annotation)
        injected = _plan(parameter, annotation, tool_name)
        if injected is not None:
            plans.append(injected)
            continue
        plans.append(
            ParameterPlan(parameter.name, "argument", parameter.kind is parameter.POSITIONAL_ONLY)
        )
        field_name = f"a{len(fields)}"
        fields.append((field_name, parameter.name))
        definitions[field_name] = _field(parameter, annotation, docstring.arguments)
    model, schema = _arguments_model(function, tool_name, definitions)
    return FunctionSpec(
        plans=tuple(plans),
        model=model,
        fields=tuple(fields),
        schema=schema,
        description=docstring.description,
        has_receiver=has_receiver,
        is_async=inspect.iscoroutinefunction(function),
    )

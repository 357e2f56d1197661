"""Validating a component's options against the component's own options model.

A component factory declares its options in one of two ways:

* a class attribute ``Options``, a pydantic model: the options are validated with it and
  every field of the validated model is passed to the factory as a keyword argument;
* otherwise its signature (``__init__`` for a class): a pydantic model is built once from the
  keyword parameters' type hints and defaults (unknown options are refused unless the factory
  takes ``**kwargs``), and the options given are passed validated (``"3"`` becomes ``3`` for
  an ``int`` parameter); parameters not given keep the factory's own defaults.

Annotations that cannot be resolved (types imported only for type checking) accept any value;
the factory itself still checks them.
"""

from __future__ import annotations

import collections.abc
import functools
import inspect
import types
import typing
import warnings
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import PydanticUndefined, core_schema

from gent_core._config.problems import problems_from_validation_error, unknown_problem
from gent_core._config.secrets import is_secret_key
from gent_core._config.yamldoc import KeyPath
from gent_core.errors import ConfigError, ConfigProblem, Location

__all__ = [
    "OptionsSpec",
    "check_options",
    "options_spec",
    "parse_options_model",
    "validate_options",
]

OptionsModel = TypeVar("OptionsModel", bound=BaseModel)


class _TolerantSchema(GenerateJsonSchema):
    """JSON Schema generation that writes ``{}`` (any value) for types it cannot describe."""

    def handle_invalid_for_json_schema(
        self, schema: core_schema.CoreSchema | core_schema.DataclassField, error_info: str
    ) -> JsonSchemaValue:
        return {}


@dataclass(frozen=True)
class OptionsSpec:
    """What options a factory accepts.

    Attributes:
        model: The pydantic model validating them, or ``None`` when the factory's signature
            cannot be read (options are then passed unchecked).
        declared: Whether ``model`` is the factory's own ``Options`` class.
        names: The accepted option names.
        open: Whether options beyond ``names`` are accepted (the factory takes ``**kwargs``).
    """

    model: type[BaseModel] | None
    declared: bool
    names: tuple[str, ...]
    open: bool

    @functools.cached_property
    def schema(self) -> dict[str, Any]:
        """The JSON Schema of :attr:`model` (``{}`` for parts it cannot describe)."""
        if self.model is None:
            return {}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return self.model.model_json_schema(schema_generator=_TolerantSchema)
        except Exception:  # noqa: BLE001 - a schema is only used to word messages
            return {}


def _annotations(
    function: Callable[..., Any], parameters: list[inspect.Parameter]
) -> dict[str, Any]:
    """Resolve the parameters' annotations; unresolvable ones become ``Any``."""
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except Exception:  # noqa: BLE001 - fall back to one parameter at a time
        hints = {}
        namespace = getattr(inspect.unwrap(function), "__globals__", {})
        for parameter in parameters:
            annotation = parameter.annotation
            if isinstance(annotation, str):
                try:
                    annotation = eval(annotation, dict(namespace))
                except Exception:  # noqa: BLE001 - unresolvable: accept anything
                    annotation = Any
            hints[parameter.name] = annotation
    return {
        parameter.name: (
            Any
            if hints.get(parameter.name, inspect.Parameter.empty) is inspect.Parameter.empty
            else hints[parameter.name]
        )
        for parameter in parameters
    }


_LAZY_COLLECTIONS = (collections.abc.Iterable, collections.abc.Collection)


def _eager(annotation: Any) -> Any:
    """``annotation`` with each ``Iterable[X]`` and ``Collection[X]`` validated as ``list[X]``.

    pydantic checks an ``Iterable`` lazily, when the component iterates it (a bad item then
    raises pydantic's own error from inside the component, with no key named), and takes a
    ``Collection`` by ``isinstance``: both accept a string as a list of characters
    (``outputs: abc`` would be three outputs). A list is checked item by item at once, and
    a string where a list is expected is refused with the key named.
    """
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if annotation in _LAZY_COLLECTIONS or origin in _LAZY_COLLECTIONS:
        return list[_eager(arguments[0])] if arguments else list[Any]  # type: ignore[misc]
    if origin is typing.Annotated:
        return typing.Annotated.__class_getitem__((_eager(arguments[0]), *arguments[1:]))
    if origin in (typing.Union, types.UnionType):
        return typing.Union.__getitem__(tuple(_eager(argument) for argument in arguments))
    return annotation


def _signature_target(factory: Callable[..., Any]) -> Callable[..., Any]:
    """The function whose annotations describe ``factory``'s parameters."""
    if isinstance(factory, type):
        for klass in factory.__mro__:
            init: Callable[..., Any] | None = vars(klass).get("__init__")
            if klass is not object and callable(init):
                return init
    return factory


def _signature_spec(factory: Callable[..., Any], exclude: frozenset[str]) -> OptionsSpec:
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return OptionsSpec(None, False, (), True)
    keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    parameters = [
        parameter
        for parameter in signature.parameters.values()
        if parameter.kind in keyword and parameter.name not in exclude
    ]
    is_open = any(
        parameter.kind is inspect.Parameter.VAR_KEYWORD
        for parameter in signature.parameters.values()
    )
    annotations = _annotations(_signature_target(factory), parameters)
    config = ConfigDict(
        extra="allow" if is_open else "forbid",
        arbitrary_types_allowed=True,
        protected_namespaces=(),
    )

    def build(typed: bool) -> type[BaseModel]:
        fields: dict[str, Any] = {}
        for index, parameter in enumerate(parameters):
            default = parameter.default
            if default is inspect.Parameter.empty:
                default = PydanticUndefined
            annotation = _eager(annotations[parameter.name]) if typed else Any
            fields[f"f{index}"] = (annotation, Field(default, alias=parameter.name))
        name = getattr(factory, "__name__", type(factory).__name__)
        model: type[BaseModel] = create_model(f"{name}Options", __config__=config, **fields)
        return model

    try:
        model = build(typed=True)
    except Exception:  # noqa: BLE001 - a type pydantic cannot use: check names only
        model = build(typed=False)
    names = tuple(parameter.name for parameter in parameters)
    return OptionsSpec(model, False, names, is_open)


@functools.lru_cache(maxsize=512)
def _cached_spec(factory: Callable[..., Any], exclude: frozenset[str]) -> OptionsSpec:
    return _build_spec(factory, exclude)


def _build_spec(factory: Callable[..., Any], exclude: frozenset[str]) -> OptionsSpec:
    declared = getattr(factory, "Options", None) if isinstance(factory, type) else None
    if isinstance(declared, type) and issubclass(declared, BaseModel):
        names: list[str] = []
        for field_name, info in declared.model_fields.items():
            names.append(info.alias or field_name)
        extra = declared.model_config.get("extra")
        return OptionsSpec(declared, True, tuple(names), extra == "allow")
    return _signature_spec(factory, exclude)


def options_spec(factory: Callable[..., Any], *, exclude: Collection[str] = ()) -> OptionsSpec:
    """Return what options ``factory`` accepts (computed once per factory).

    Args:
        factory: A component class or factory function.
        exclude: Parameters gent passes itself (``tools`` for a tool chain).
    """
    key = frozenset(exclude)
    try:
        return _cached_spec(factory, key)
    except TypeError:  # an unhashable factory object
        return _build_spec(factory, key)


def check_options(
    factory: Callable[..., Any],
    options: Mapping[str, Any],
    *,
    exclude: Collection[str] = (),
    is_secret: Callable[[KeyPath, Any], bool] | None = None,
) -> tuple[dict[str, Any] | None, list[tuple[KeyPath, str]]]:
    """Validate ``options`` for ``factory`` and collect every problem.

    Args:
        factory: A component class or factory function.
        options: The options as written in the config.
        exclude: Parameters gent passes itself; giving one is a problem.
        is_secret: Whether the value at an option path must not be shown in messages
            (default: values under credential-like keys such as ``api_key``).

    Returns:
        The keyword arguments to call ``factory`` with (``None`` when there are problems),
        and the problems as ``(option path, message)``.
    """

    def secret_by_key(path: KeyPath, value: Any) -> bool:
        return any(is_secret_key(part) for part in path)

    secret = is_secret or secret_by_key
    spec = options_spec(factory, exclude=exclude)
    problems: list[tuple[KeyPath, str]] = []
    known: dict[str, Any] = {}
    for key, value in options.items():
        if key in exclude:
            problems.append(((key,), f"option {key!r} is set by gent; remove it"))
        elif spec.model is None or spec.open or key in spec.names:
            known[key] = value
        else:
            problems.append(((key,), unknown_problem(key, list(spec.names), "option")))
    if spec.model is None:
        return (None if problems else known), problems
    try:
        validated = spec.model.model_validate(known)
    except ValidationError as error:
        problems += problems_from_validation_error(
            error, spec.schema, noun="option", is_secret=secret
        )
        return None, problems
    if problems:
        return None, problems
    if spec.declared:
        return {name: getattr(validated, name) for name in type(validated).model_fields}, []
    fields = type(validated).model_fields
    kwargs = {
        fields[name].alias or name: getattr(validated, name)
        for name in validated.model_fields_set
        if name in fields
    }
    kwargs.update(validated.model_extra or {})
    return kwargs, []


def validate_options(
    factory: Callable[..., Any],
    options: Mapping[str, Any],
    *,
    exclude: Collection[str] = (),
) -> dict[str, Any]:
    """Validate a component's options against the component's own options model.

    If ``factory`` has an ``Options`` attribute that is a pydantic model, it validates the
    options and every validated field is returned; otherwise a model is built from the
    factory's signature (type hints and defaults; ``self``, ``*args``, ``**kwargs`` and the
    ``exclude`` parameters skipped) and the given options are returned validated and coerced.

    Args:
        factory: A component class or factory function.
        options: The options as written in the config.
        exclude: Parameters gent passes itself (``tools`` for a tool chain).

    Returns:
        The keyword arguments to call ``factory`` with.

    Raises:
        ConfigError: One problem per bad option: unknown options (listing the accepted
            ones), missing required options, values of the wrong type (saying what is
            accepted). Values under credential-like keys are never shown.
    """
    kwargs, problems = check_options(factory, options, exclude=exclude)
    if problems or kwargs is None:
        raise ConfigError(
            problems=[
                ConfigProblem(message, Location(key=".".join(str(part) for part in path)))
                for path, message in problems
            ]
        )
    return kwargs


def parse_options_model(
    model: type[OptionsModel], options: Mapping[str, Any], *, plugin: str, kind: str = "model"
) -> OptionsModel:
    """Validate a component's ``options`` with its own pydantic options ``model``.

    Args:
        model: The options model.
        options: The options as given (config file or keyword arguments).
        plugin: The component's name, for the message (``"openai"``).
        kind: The component's kind, for the message.

    Raises:
        ConfigError: Naming every invalid or unknown option and listing the accepted ones;
            the values given are never quoted (one may be a secret).
    """
    try:
        return model.model_validate(options)
    except ValidationError as error:
        problems = [
            f"{'.'.join(str(part) for part in item['loc']) or '(options)'}: {item['msg']}"
            for item in error.errors(include_url=False, include_input=False)
        ]
        raise ConfigError(
            f"invalid {plugin} {kind} options: " + "; ".join(problems),
            location=Location(plugin=plugin),
            hint=f"Accepted options: {', '.join(model.model_fields)}.",
        ) from None

"""Pydantic validation whose Python-``re`` patterns match through :mod:`gent_core._regexes`.

pydantic checks a string's ``pattern`` (``Field(pattern=...)``, ``constr``,
``StringConstraints``) with the Rust ``regex`` crate by default, which runs in linear time.
But a model configured with ``regex_engine="python-re"`` (needed for look-arounds or
back-references), or a pattern given as a compiled ``re.Pattern``, is matched with Python's
:mod:`re`: a catastrophic pattern then runs for hours on a value a model wrote, holding the
GIL and ignoring Ctrl-C.

:func:`validate_python` and :func:`validate_json` validate like ``model.model_validate`` and
``model.model_validate_json``; for a model with such patterns they use a validator built
from the model's core schema in which each of those patterns is checked by a bounded
:class:`~gent_core._regexes.BoundedPattern` instead: same search semantics, same
``string_pattern_mismatch`` error, and a ``string_pattern_timeout`` error ("the pattern ...
took longer than 1 s on this text; simplify it") when it runs out of time (the patterns of
one validation share one deadline, :func:`~gent_core._regexes.shared_deadline`). Models without
them (the common case) are validated by pydantic as they are.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from gent_core._regexes import (
    BoundedPattern,
    PatternError,
    PatternTimeoutError,
    compile_pattern,
    shared_deadline,
)

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic_core import SchemaValidator

__all__ = ["bounded_validator", "validate_json", "validate_python"]

M = TypeVar("M", bound="BaseModel")

_PYTHON_RE = "python-re"
# Keys of a core schema whose values are not schemas to validate with.
_NOT_SCHEMAS = frozenset(
    {"metadata", "default", "cls", "config", "serialization", "expected", "ref", "json_schema"}
)

_validators: weakref.WeakKeyDictionary[type[Any], SchemaValidator | None] = (
    weakref.WeakKeyDictionary()
)


def _checker(pattern: BoundedPattern) -> Callable[[str], str]:
    """A pydantic ``after`` validator searching ``pattern`` with its deadline."""
    from pydantic_core import PydanticCustomError

    def check(value: str) -> str:
        try:
            found = pattern.search(value)
        except PatternTimeoutError as error:
            raise PydanticCustomError(
                "string_pattern_timeout", "{reason}", {"reason": error.message}
            ) from None
        if found is None:
            raise PydanticCustomError(
                "string_pattern_mismatch",
                "String should match pattern '{pattern}'",
                {"pattern": pattern.pattern},
            )
        return value

    return check


class _Rewriter:
    """Rewrites a core schema, checking each Python-``re`` pattern through a bounded one."""

    def __init__(self) -> None:
        self.changed = False

    def walk(self, node: Any, engine: str | None) -> Any:
        if isinstance(node, list | tuple):  # union choices may be (schema, label) pairs
            items = [self.walk(item, engine) for item in node]
            if not any(a is not b for a, b in zip(items, node, strict=True)):
                return node
            return items if isinstance(node, list) else tuple(items)
        if not isinstance(node, dict):
            return node
        config = node.get("config")
        if isinstance(config, dict):
            engine = config.get("regex_engine")
        rewritten = {
            key: value if key in _NOT_SCHEMAS else self.walk(value, engine)
            for key, value in node.items()
        }
        if not any(rewritten[key] is not node[key] for key in node):
            rewritten = node
        if node.get("type") == "str" and "pattern" in node:
            return self._bounded(rewritten, engine)
        return rewritten

    def _bounded(self, node: dict[str, Any], engine: str | None) -> dict[str, Any]:
        pattern = node["pattern"]
        if not (isinstance(pattern, re.Pattern) or engine == _PYTHON_RE):
            return node  # the Rust engine: linear time
        try:
            bounded = compile_pattern(pattern)
        except PatternError:
            return node  # re accepts what regex does not: left to pydantic
        self.changed = True
        inner = {key: value for key, value in node.items() if key != "pattern"}
        return {
            "type": "function-after",
            "function": {"type": "no-info", "function": _checker(bounded)},
            "schema": inner,
        }


def bounded_validator(model: type[BaseModel]) -> SchemaValidator | None:
    """The validator checking ``model``'s Python-``re`` patterns through bounded ones, or
    ``None`` when the model has none (validate with the model itself). Built once per model.
    """
    try:
        return _validators[model]
    except KeyError:
        pass
    except TypeError:  # not weak-referenceable: not cached
        return _build(model)
    validator = _build(model)
    _validators[model] = validator
    return validator


def _build(model: type[BaseModel]) -> SchemaValidator | None:
    from pydantic_core import SchemaValidator

    schema = getattr(model, "__pydantic_core_schema__", None)
    if not isinstance(schema, dict):  # not complete yet (a mock): pydantic validates
        return None
    rewriter = _Rewriter()
    top = schema.get("config")
    rewritten = rewriter.walk(schema, top.get("regex_engine") if isinstance(top, dict) else None)
    if not rewriter.changed:
        return None
    config = top if isinstance(top, dict) else None
    try:  # not the models' own (prebuilt) validators, which hold the original patterns
        return SchemaValidator(rewritten, config, _use_prebuilt=False)  # type: ignore[arg-type]
    except TypeError:  # pydantic-core before 2.27 builds every model afresh anyway
        return SchemaValidator(rewritten, config)  # type: ignore[arg-type]


def validate_python(model: type[M], value: Any) -> M:
    """``model.model_validate(value)``, with bounded Python-``re`` patterns.

    Raises:
        pydantic.ValidationError: As ``model_validate`` does; a pattern that ran out of time
            is a ``string_pattern_timeout`` error.
    """
    validator = bounded_validator(model)
    if validator is None:
        return model.model_validate(value)
    with shared_deadline():
        return cast("M", validator.validate_python(value))


def validate_json(model: type[M], text: str | bytes) -> M:
    """``model.model_validate_json(text)``, with bounded Python-``re`` patterns (raises like
    :func:`validate_python`).
    """
    validator = bounded_validator(model)
    if validator is None:
        return model.model_validate_json(text)
    with shared_deadline():
        return cast("M", validator.validate_json(text))

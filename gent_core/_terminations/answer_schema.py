"""What a typed answer must look like: a pydantic model, or a JSON Schema written inline.

The ``json`` termination (:class:`~gent_core._terminations.typed.JSONTermination`) reads and
checks answers through an :class:`AnswerSchema`, one of:

* :class:`ModelAnswer`: a pydantic model class; an answer becomes a model instance;
* :class:`InlineAnswer`: a JSON Schema given as a mapping (``schema: {type: object, ...}`` in
  a config file); an answer is checked, and coerced where models commonly slip (``"7"`` for an
  integer), by the core's :class:`~gent_core.tools._validator.SchemaValidator`, the one tool
  arguments use, and becomes plain JSON data (a dict for an object schema, defaults filled).

Both report each problem as ``"<field path>: <what is wrong and what is accepted>"``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from gent_core.errors import ConfigError, ConfigProblem, Location

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["AnswerProblems", "AnswerSchema", "InlineAnswer", "ModelAnswer"]

_WHOLE = "(the whole answer)"


class AnswerProblems(Exception):
    """An answer (or example) does not match the schema.

    Attributes:
        problems: ``"<field path>: <message>"`` for each problem.
    """

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class AnswerSchema(Protocol):
    """How the ``json`` termination reads an answer."""

    @property
    def name(self) -> str:
        """What the answer is called in messages (``Verdict``, ``the answer schema``)."""

    @property
    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema shown to the model and used for the grammar."""

    def from_json(self, text: str) -> Any:
        """The answer written as JSON ``text``, checked (raises :class:`AnswerProblems`)."""

    def from_data(self, value: Any) -> Any:
        """The answer given as data (an example), checked (raises :class:`AnswerProblems`)."""

    def to_data(self, answer: Any) -> Any:
        """An answer of this schema as plain JSON data."""


def _pydantic_problems(error: Any) -> list[str]:
    """``"<field path>: <message>"`` for each error of a pydantic ``ValidationError``."""
    return [
        f"{'.'.join(str(part) for part in item['loc']) or _WHOLE}: {item['msg']}"
        for item in error.errors(include_url=False)
    ]


class ModelAnswer:
    """Answers validated into a pydantic model class.

    Args:
        model: The model class.
    """

    def __init__(self, model: type[BaseModel]) -> None:
        self.model = model

    @property
    def name(self) -> str:
        """The model's class name."""
        return self.model.__name__

    @property
    def json_schema(self) -> dict[str, Any]:
        """The model's JSON Schema."""
        return self.model.model_json_schema()

    def from_json(self, text: str) -> BaseModel:
        """Validate JSON ``text`` into the model."""
        from pydantic import ValidationError

        from gent_core._pydantic_patterns import validate_json

        try:
            return validate_json(self.model, text)
        except ValidationError as error:
            raise AnswerProblems(_pydantic_problems(error)) from error

    def from_data(self, value: Any) -> BaseModel:
        """Validate a mapping or a model instance into the model."""
        from pydantic import BaseModel, ValidationError
        from pydantic_core import to_jsonable_python

        from gent_core._pydantic_patterns import validate_python

        if isinstance(value, BaseModel):
            value = to_jsonable_python(value)
        try:
            return validate_python(self.model, value)
        except ValidationError as error:
            raise AnswerProblems(_pydantic_problems(error)) from error

    def to_data(self, answer: Any) -> Any:
        """The instance as JSON data."""
        from pydantic_core import to_jsonable_python

        return to_jsonable_python(answer)


class InlineAnswer:
    """Answers checked against a JSON Schema given as a mapping.

    Args:
        schema: The JSON Schema.

    Raises:
        ConfigError: The schema cannot be used; the problem's key is where inside the
            option (``schema.properties.age.type``), so a config shows its line.
    """

    def __init__(self, schema: Mapping[str, Any]) -> None:
        from gent_core.tools._validator import SchemaDefinitionError, SchemaValidator

        self.schema: dict[str, Any] = copy.deepcopy(dict(schema))
        try:
            self.validator = SchemaValidator(self.schema)
        except SchemaDefinitionError as error:
            key = ".".join(str(part) for part in ("schema", *error.path))
            raise ConfigError(
                problems=[ConfigProblem(f"invalid answer schema: {error}", Location(key=key))]
            ) from None
        except ValueError as error:
            raise ConfigError(
                problems=[ConfigProblem(f"invalid answer schema: {error}", Location(key="schema"))]
            ) from None

    @property
    def name(self) -> str:
        """``the answer schema`` (or the schema's ``title``)."""
        title = self.schema.get("title")
        return title if isinstance(title, str) and title else "the answer schema"

    @property
    def json_schema(self) -> dict[str, Any]:
        """The schema as given."""
        return self.schema

    def from_json(self, text: str) -> Any:
        """Read JSON ``text`` and check it."""
        from gent_core._bounded import read_json
        from gent_core.errors import InputError

        try:
            value = read_json(text, source="the answer")
        except InputError as error:  # not JSON, or beyond gent's bounds (nested too deeply)
            raise AnswerProblems([f"{_WHOLE}: {error.problem}"]) from None
        return self.from_data(value)

    def from_data(self, value: Any) -> Any:
        """Check ``value``; return it coerced, with defaults filled in."""
        try:
            result, problems = self.validator.validate(value)
        except ValueError as error:  # a $ref loop: the schema cannot check anything
            raise AnswerProblems([f"{_WHOLE}: cannot be checked: {error}"]) from None
        if problems:
            raise AnswerProblems([f"{p.path or _WHOLE}: {p.message}" for p in problems])
        return result

    def to_data(self, answer: Any) -> Any:
        """The answer (already JSON data)."""
        return answer

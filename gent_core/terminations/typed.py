"""The ``json`` termination: the answer is JSON validated into a pydantic model.

The model's JSON Schema (field descriptions, nested models, optional fields, datetimes,
durations, lists, dicts) is written into the prompt guidance, and validation errors become
text the model can act on.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gent_core.errors import GentError, Location, TerminationError
from gent_core.termination import Termination

if TYPE_CHECKING:
    from pydantic import BaseModel

    from gent_core.grammar.builder import GrammarBuilder

__all__ = ["JSONTermination", "import_object"]

_FENCE = re.compile(r"^```[A-Za-z0-9_-]*[ \t]*\n(?P<body>.*)\n```[ \t]*$", re.DOTALL)
_MAX_QUOTE = 200


def import_object(path: str) -> Any:
    """Import ``"package.module:Name"`` (or ``"package.module.Name"``) and return the object.

    Raises:
        GentError: Naming the path and what went wrong.
    """
    module_name, sep, attribute = path.partition(":")
    if not sep:
        module_name, _, attribute = path.rpartition(".")
    if not module_name or not attribute:
        raise GentError(
            f"invalid import path {path!r}", hint="Write it as 'package.module:ClassName'."
        )
    try:
        value: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            value = getattr(value, part)
    except (ImportError, AttributeError) as error:
        raise GentError(f"cannot import {path!r}: {error}") from error
    return value


def _problems(error: Any) -> list[str]:
    """``"<field path>: <message>"`` for each error of a pydantic ``ValidationError``."""
    problems = []
    for item in error.errors(include_url=False):
        where = ".".join(str(part) for part in item["loc"]) or "(the whole answer)"
        problems.append(f"{where}: {item['msg']}")
    return problems


def _quote(text: str) -> str:
    text = text.strip()
    return text if len(text) <= _MAX_QUOTE else text[:_MAX_QUOTE] + "..."


class JSONTermination(Termination):
    """The final answer is a JSON object validated into a pydantic model.

    Args:
        schema: The pydantic model class, or its import path (``"pkg.models:Answer"``).
        section_name: The section the answer is written in.
        guidance: Text replacing the default first line of the guidance (the JSON Schema is
            always appended).
        example: An example answer (a model instance, a mapping or JSON text), shown in the
            prompt and in few-shot examples. It is validated against the model here: an
            example that does not validate is an error naming each invalid field. Without
            it, an example is made up from the JSON Schema.

    Raises:
        GentError: When ``schema`` is not a pydantic model class, or ``example`` does not
            validate against it.
    """

    def __init__(
        self,
        schema: type[BaseModel] | str,
        *,
        section_name: str = "answer",
        guidance: str | None = None,
        example: Mapping[str, Any] | BaseModel | str | None = None,
    ) -> None:
        from pydantic import BaseModel

        super().__init__(section_name=section_name, guidance=guidance)
        model = import_object(schema) if isinstance(schema, str) else schema
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise GentError(
                f"the json termination needs a pydantic model class, got {model!r}",
                hint="Pass a BaseModel subclass or an import path such as 'pkg.models:Answer'.",
            )
        self.model: type[BaseModel] = model
        self.example: BaseModel | None = None if example is None else self._validated(example)

    def _validated(self, example: Mapping[str, Any] | BaseModel | str) -> BaseModel:
        """``example`` validated into the model, or a :class:`GentError` naming each problem."""
        from pydantic import BaseModel, ValidationError

        try:
            if isinstance(example, str):
                return self.model.model_validate_json(example)
            if isinstance(example, BaseModel):
                example = example.model_dump(mode="json")
            return self.model.model_validate(dict(example))
        except ValidationError as error:
            raise GentError(
                f"the example answer does not match {self.model.__name__}: "
                + "; ".join(_problems(error)),
                hint="Give an example that validates against the answer's schema.",
            ) from error
        except TypeError as error:
            raise GentError(
                f"the example answer must be a mapping, JSON text or a {self.model.__name__}, "
                f"got {type(example).__name__}"
            ) from error

    @property
    def json_schema(self) -> dict[str, Any]:
        """The model's JSON Schema."""
        return self.model.model_json_schema()

    @property
    def guidance(self) -> str:
        """The answer instructions, the JSON Schema the answer must match, and the example
        answer when one was given.
        """
        intro = self._guidance or "Your final answer, as one JSON object (no prose around it)."
        schema = json.dumps(self.json_schema, separators=(",", ":"), ensure_ascii=False)
        text = (
            f"{intro}\nIt must match this JSON Schema:\n{schema}\n"
            "Dates and times are ISO 8601 strings (2026-01-20T09:30:00Z); durations are "
            "ISO 8601 durations (PT1H30M) or seconds."
        )
        if self.example is not None:
            text += f"\nFor example:\n{self.example_answer('')}"
        return text

    def example_answer(self, draft: str) -> str:
        """The example answer given at creation, or one made up from the JSON Schema, as
        compact JSON (``draft`` is not used: the answer has the schema's shape).
        """
        if self.example is not None:
            value: Any = self.example.model_dump(mode="json")
        else:
            from gent_core.schema_examples import example_value

            schema = self.json_schema
            value = example_value(schema, schema, "answer")
        return json.dumps(value, ensure_ascii=False)

    def grammar_answer(self, builder: GrammarBuilder) -> str | None:
        """The answer as JSON valid for the model's JSON Schema."""
        from gent_core.grammar.json_schema import JSONSchemaConverter

        return JSONSchemaConverter(builder).convert(self.json_schema, "answer-json")

    def parse(self, content: str) -> BaseModel | None:
        """Validate ``content`` (JSON, optionally in a code fence) into the model.

        Returns:
            The validated model instance, or ``None`` when ``content`` is empty.

        Raises:
            TerminationError: Listing each invalid field and what is accepted.
        """
        from pydantic import ValidationError

        text = content.strip()
        if not text:
            return None
        fenced = _FENCE.match(text)
        if fenced:
            text = fenced.group("body").strip()
        try:
            return self.model.model_validate_json(text)
        except ValidationError as error:
            listed = "\n".join(f"- {problem}" for problem in _problems(error))
            raise TerminationError(
                f"answer does not match {self.model.__name__}: {error.error_count()} error(s)",
                location=Location(section=self.name),
                model_message=(
                    f"Your answer is not valid for the required schema:\n{listed}\n"
                    f"You wrote: {_quote(content)}\n"
                    "Write the answer again as one JSON object matching the schema."
                ),
            ) from error

"""The ``json`` termination: the answer is JSON, checked against a schema.

The schema is a pydantic model (the class, or its import path ``"pkg.models:Answer"``) or a
JSON Schema written inline as a mapping (``termination: {name: json, schema: {type: object,
properties: {...}}}`` in a config file); see :mod:`gent_core._terminations.answer_schema`. Its
JSON Schema (field descriptions, nested objects, optional fields, datetimes, durations, lists,
dicts) is written into the prompt guidance and constrains the grammar, and every problem of an
answer becomes text the model can act on: which field is wrong and what is accepted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gent_core._importing import import_object
from gent_core._terminations.answer_schema import (
    AnswerProblems,
    AnswerSchema,
    InlineAnswer,
    ModelAnswer,
)
from gent_core.errors import ConfigError, ConfigProblem, GentError, Location, TerminationError
from gent_core.termination import Termination

if TYPE_CHECKING:
    from pydantic import BaseModel

    from gent_core._grammar.builder import GrammarBuilder

__all__ = ["JSONTermination", "import_object"]

_FENCE = re.compile(r"^```[A-Za-z0-9_-]*[ \t]*\n(?P<body>.*)\n```[ \t]*$", re.DOTALL)
_MAX_QUOTE = 200


def _quote(text: str) -> str:
    text = text.strip()
    return text if len(text) <= _MAX_QUOTE else text[:_MAX_QUOTE] + "..."


def _answer_schema(schema: Any) -> AnswerSchema:
    """The :class:`AnswerSchema` for what ``schema`` option was given."""
    from pydantic import BaseModel

    if isinstance(schema, Mapping):
        return InlineAnswer(schema)
    if isinstance(schema, str):
        try:
            model = import_object(schema)
        except GentError as error:  # reported at the option's line in a config file
            raise ConfigError(
                problems=[ConfigProblem(str(error), Location(key="schema"))]
            ) from None
    else:
        model = schema
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        message = (
            "the json termination needs a pydantic model class, its import path such as "
            "'pkg.models:Answer', or a JSON Schema mapping such as {type: object, properties: "
            f"{{...}}}}; got {model!r}"
        )
        raise ConfigError(problems=[ConfigProblem(message, Location(key="schema"))])
    return ModelAnswer(model)


class JSONTermination(Termination):
    """The final answer is JSON checked against a schema.

    Args:
        schema: A pydantic model class, its import path (``"pkg.models:Answer"``; a module
            next to the config file or in the current directory is found too, see
            :mod:`gent_core._importing`), or a JSON Schema as a mapping. With a model the answer
            is a model instance; with a JSON Schema it is plain data (a dict for an object),
            coerced where models commonly slip (``"7"`` for an integer) and with defaults
            filled in.
        section_name: The section the answer is written in.
        guidance: Text replacing the default first line of the guidance (the JSON Schema is
            always appended).
        example: An example answer (a model instance, a mapping or JSON text), shown in the
            prompt and in few-shot examples. It is checked against the schema here: an
            example that does not match is an error naming each invalid field. Without it,
            an example is made up from the JSON Schema.

    Raises:
        GentError: When ``schema`` is neither a pydantic model class nor a mapping, does not
            import, or ``example`` does not match it.
        ConfigError: When an inline JSON Schema cannot be used, naming where inside it
            (``schema.properties.age.type``: a config file shows the line).

    Attributes:
        model: The pydantic model class, or ``None`` for an inline JSON Schema.
    """

    def __init__(
        self,
        schema: type[BaseModel] | str | Mapping[str, Any],
        *,
        section_name: str = "answer",
        guidance: str | None = None,
        example: Mapping[str, Any] | BaseModel | str | None = None,
    ) -> None:
        super().__init__(section_name=section_name, guidance=guidance)
        self.answers: AnswerSchema = _answer_schema(schema)
        self.model: type[BaseModel] | None = (
            self.answers.model if isinstance(self.answers, ModelAnswer) else None
        )
        self.example: Any = None if example is None else self._validated(example)

    def _validated(self, example: Mapping[str, Any] | BaseModel | str) -> Any:
        """``example`` checked against the schema, or a :class:`GentError` naming each
        problem.
        """
        from pydantic import BaseModel

        name = self.answers.name
        if not isinstance(example, str | Mapping | BaseModel):
            raise GentError(
                f"the example answer must be a mapping, JSON text or a {name}, "
                f"got {type(example).__name__}"
            )
        try:
            if isinstance(example, str):
                return self.answers.from_json(example)
            return self.answers.from_data(
                example if isinstance(example, BaseModel) else dict(example)
            )
        except AnswerProblems as error:
            raise GentError(
                f"the example answer does not match {name}: " + "; ".join(error.problems),
                hint="Give an example that validates against the answer's schema.",
            ) from error

    @property
    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema the answer must match."""
        return self.answers.json_schema

    @property
    def guidance(self) -> str:
        """The answer instructions, the JSON Schema the answer must match, and the example
        answer when one was given.
        """
        is_object = self.json_schema.get("type", "object") == "object"
        default = (
            "Your final answer, as one JSON object (no prose around it)."
            if is_object
            else "Your final answer, as JSON (no prose around it)."
        )
        intro = self._guidance or default
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
            value: Any = self.answers.to_data(self.example)
        else:
            from gent_core._schema_examples import example_value

            schema = self.json_schema
            value = example_value(schema, schema, "answer")
        return json.dumps(value, ensure_ascii=False)

    def grammar_answer(self, builder: GrammarBuilder) -> str | None:
        """The answer as JSON valid for the JSON Schema."""
        from gent_core._grammar.json_schema import JSONSchemaConverter

        return JSONSchemaConverter(builder).convert(self.json_schema, "answer-json")

    def parse(self, content: str) -> Any:
        """Check ``content`` (JSON, optionally in a code fence) against the schema.

        Returns:
            The answer (a model instance, or JSON data for an inline schema), or ``None``
            when ``content`` is empty.

        Raises:
            TerminationError: Listing each invalid field and what is accepted.
        """
        text = content.strip()
        if not text:
            return None
        fenced = _FENCE.match(text)
        if fenced:
            text = fenced.group("body").strip()
        try:
            return self.answers.from_json(text)
        except AnswerProblems as error:
            listed = "\n".join(f"- {problem}" for problem in error.problems)
            raise TerminationError(
                f"answer does not match {self.answers.name}: {len(error.problems)} error(s)",
                location=Location(section=self.name),
                model_message=(
                    f"Your answer is not valid for the required schema:\n{listed}\n"
                    f"You wrote: {_quote(content)}\n"
                    "Write the answer again as one JSON object matching the schema."
                ),
            ) from error

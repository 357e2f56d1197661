"""The ``json`` termination: the answer is JSON validated into a pydantic model.

The model's JSON Schema (field descriptions, nested models, optional fields, datetimes,
durations, lists, dicts) is written into the prompt guidance, and validation errors become
text the model can act on.
"""

from __future__ import annotations

import importlib
import json
import re
from typing import TYPE_CHECKING, Any

from gent_core.errors import GentError, Location, TerminationError
from gent_core.termination import Termination

if TYPE_CHECKING:
    from pydantic import BaseModel

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
    """

    def __init__(
        self,
        schema: type[BaseModel] | str,
        *,
        section_name: str = "answer",
        guidance: str | None = None,
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

    @property
    def json_schema(self) -> dict[str, Any]:
        """The model's JSON Schema."""
        return self.model.model_json_schema()

    @property
    def guidance(self) -> str:
        """The answer instructions followed by the JSON Schema the answer must match."""
        intro = self._guidance or "Your final answer, as one JSON object (no prose around it)."
        schema = json.dumps(self.json_schema, separators=(",", ":"), ensure_ascii=False)
        return (
            f"{intro}\nIt must match this JSON Schema:\n{schema}\n"
            "Dates and times are ISO 8601 strings (2026-01-20T09:30:00Z); durations are "
            "ISO 8601 durations (PT1H30M) or seconds."
        )

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
            problems = []
            for item in error.errors(include_url=False):
                where = ".".join(str(part) for part in item["loc"]) or "(the whole answer)"
                problems.append(f"- {where}: {item['msg']}")
            listed = "\n".join(problems)
            raise TerminationError(
                f"answer does not match {self.model.__name__}: {error.error_count()} error(s)",
                location=Location(section=self.name),
                model_message=(
                    f"Your answer is not valid for the required schema:\n{listed}\n"
                    f"You wrote: {_quote(content)}\n"
                    "Write the answer again as one JSON object matching the schema."
                ),
            ) from error

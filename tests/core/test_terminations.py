"""The built-in ``text`` and ``json`` terminations."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Optional

import pytest
from pydantic import BaseModel, Field

from gent_core._terminations import JSONTermination, TextTermination
from gent_core.errors import GentError, TerminationError


class Flight(BaseModel):
    """A flight."""

    number: str = Field(description="The flight number, e.g. LH123")
    departs: datetime = Field(description="Departure time")
    duration: timedelta


class Itinerary(BaseModel):
    """An answer with nested models, optional fields, lists and dicts."""

    traveller: str = Field(description="Full name of the traveller")
    flights: list[Flight]
    notes: Optional[str] = None  # noqa: UP045 - Optional on purpose: the schema must show it
    prices: dict[str, float] = Field(default_factory=dict, description="Price per fare class")


GOOD = {
    "traveller": "Ada Lovelace",
    "flights": [{"number": "LH123", "departs": "2026-01-20T09:30:00Z", "duration": "PT1H30M"}],
    "prices": {"economy": 99.5},
}


def test_text_termination_trims_and_treats_empty_as_no_answer() -> None:
    termination = TextTermination()
    assert termination.name == "answer"
    assert termination.parse("  42\n") == "42"
    assert termination.parse(" \n\t") is None
    assert termination.parse("line one\nline two") == "line one\nline two"


def test_text_termination_section_name_and_guidance_are_configurable() -> None:
    termination = TextTermination(section_name="final", guidance="Say it briefly.")
    assert (termination.name, termination.guidance) == ("final", "Say it briefly.")


def test_json_termination_parses_into_the_model() -> None:
    answer = JSONTermination(Itinerary).parse(json.dumps(GOOD))
    assert isinstance(answer, Itinerary)
    assert answer.flights[0].departs == datetime(2026, 1, 20, 9, 30, tzinfo=timezone.utc)
    assert answer.flights[0].duration == timedelta(hours=1, minutes=30)
    assert answer.notes is None and answer.prices == {"economy": 99.5}


def test_json_termination_accepts_a_code_fence() -> None:
    fenced = "```json\n" + json.dumps(GOOD) + "\n```"
    answer = JSONTermination(Itinerary).parse(fenced)
    assert isinstance(answer, Itinerary) and answer.traveller == "Ada Lovelace"


def test_json_termination_empty_is_no_answer() -> None:
    assert JSONTermination(Itinerary).parse("   ") is None


def test_json_termination_accepts_an_import_string() -> None:
    termination = JSONTermination(f"{__name__}:Itinerary")
    assert termination.model is Itinerary


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("no_such_module_xyz:Answer", "cannot import 'no_such_module_xyz:Answer'"),
        (f"{__name__}:Missing", "cannot import"),
        ("justaname", "invalid import path"),
        (f"{__name__}:GOOD", "needs a pydantic model class"),
    ],
)
def test_json_termination_bad_schema_is_a_clear_error(path: str, message: str) -> None:
    with pytest.raises(GentError, match=message):
        JSONTermination(path)


def test_guidance_contains_the_schema_with_descriptions_and_nesting() -> None:
    guidance = JSONTermination(Itinerary).guidance
    schema_line = guidance.splitlines()[2]
    schema = json.loads(schema_line)
    assert schema == Itinerary.model_json_schema()
    props = schema["properties"]
    assert props["traveller"]["description"] == "Full name of the traveller"
    assert props["flights"]["items"] == {"$ref": "#/$defs/Flight"}
    flight = schema["$defs"]["Flight"]["properties"]
    assert flight["departs"]["format"] == "date-time"
    assert flight["duration"]["format"] == "duration"
    assert {"type": "null"} in props["notes"]["anyOf"]
    assert props["prices"]["additionalProperties"] == {"type": "number"}
    assert schema["required"] == ["traveller", "flights"]
    assert "ISO 8601" in guidance


def test_validation_errors_become_model_facing_text() -> None:
    bad = {"traveller": "Ada", "flights": [{"number": 7, "departs": "soon"}]}
    with pytest.raises(TerminationError) as caught:
        JSONTermination(Itinerary).parse(json.dumps(bad))
    text = caught.value.model_message
    assert "flights.0.number: Input should be a valid string" in text
    assert "flights.0.departs: Input should be a valid datetime" in text
    assert "flights.0.duration: Field required" in text
    assert "Write the answer again as one JSON object" in text
    assert caught.value.location.section == "answer"


def test_invalid_json_is_model_facing_too() -> None:
    with pytest.raises(TerminationError) as caught:
        JSONTermination(Itinerary).parse("{'traveller': oops")
    assert "Invalid JSON" in caught.value.model_message
    assert "You wrote: {'traveller': oops" in caught.value.model_message

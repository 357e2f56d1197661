"""The built-in terminations against the Termination contract (conformance kit), and the json
termination's example answer (seed 001's ``WithExample``): validated when the termination is
made, shown in the prompt, used in the few-shot example."""

from __future__ import annotations

import json
import re
from datetime import datetime

import pytest
from gent_prompt import render_prompt
from pydantic import BaseModel, Field

from gent_core._grammar import build_agent_grammar
from gent_core._grammar.match import GrammarMatcher
from gent_core._terminations import JSONTermination, TextTermination
from gent_core.errors import GentError
from gent_core.messages import Message
from gent_core.model import OutputStructure
from gent_core.sections import TextSection
from gent_core.testing import TerminationConformance
from tests.grammar.grammar_doubles import TOOLS, LinesChainDouble, TagDouble


class Booking(BaseModel):
    """A booking: the answer's shape."""

    reference: str = Field(description="The booking reference")
    seats: int = Field(description="How many seats")
    when: datetime
    notes: list[str] = []


EXAMPLE = {"reference": "AB12CD", "seats": 2, "when": "2026-05-01T09:30:00Z"}


class TestTextTermination(TerminationConformance):
    def make_termination(self) -> TextTermination:
        return TextTermination()


class TestJSONTermination(TerminationConformance):
    def make_termination(self) -> JSONTermination:
        return JSONTermination(Booking)


class TestJSONTerminationWithExample(TerminationConformance):
    def make_termination(self) -> JSONTermination:
        return JSONTermination(Booking, example=EXAMPLE)


def test_an_example_that_does_not_validate_is_refused_when_made() -> None:
    with pytest.raises(GentError) as caught:
        JSONTermination(Booking, example={"reference": "AB12CD", "seats": "many"})
    message = str(caught.value)
    assert "the example answer does not match Booking" in message
    assert "seats:" in message and "when:" in message  # each invalid field is named
    with pytest.raises(GentError, match="does not match Booking"):
        JSONTermination(Booking, example='{"seats": "many"}')


def test_the_example_is_shown_in_the_prompt_and_written_as_the_answer() -> None:
    termination = JSONTermination(Booking, example=Booking.model_validate(EXAMPLE))
    shown = json.loads(termination.guidance.split("For example:\n", 1)[1])
    assert shown == {**EXAMPLE, "when": "2026-05-01T09:30:00Z", "notes": []}
    assert termination.parse(termination.example_answer("ignored")) == Booking.model_validate(
        EXAMPLE
    )


def test_the_few_shot_example_ends_with_the_example_answer_the_grammar_accepts() -> None:
    chain = LinesChainDouble(TOOLS)
    termination = JSONTermination(Booking, example=EXAMPLE)
    structure = OutputStructure(
        TagDouble(), [TextSection("thinking"), chain, termination], chain, termination
    )
    prompt = render_prompt([Message.system("S"), Message.user("Book two seats.")], structure)
    example = re.split(r"Examples? of the format:\n", prompt, maxsplit=1)[1]
    example = example.split("Now the real task:")[0]
    answer = example.split("<answer>\n", 1)[1].split("\n</answer>", 1)[0]
    assert answer == termination.example_answer("")
    step = example[example.rindex("<thinking>") :].strip()
    assert GrammarMatcher(build_agent_grammar(structure).text).matches(step), step

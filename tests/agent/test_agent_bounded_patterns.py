"""Schema patterns never hang a run (issue 17, item 3).

A tool schema, an answer schema or a pydantic model may hold a pattern that backtracks
catastrophically. Each input below would keep Python's ``re`` busy for hours on any machine
((a|aa)+$ on 100 "a" and a "b" tries about 1.6**100 paths), so only the deadline of
``gent_core._regexes`` can end it: the run goes on, and the model reads why its value was
refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from gent_core._agent import Agent
from gent_core._regexes import set_pattern_timeout
from gent_core._terminations.typed import JSONTermination
from gent_core.context import Limits
from gent_core.testing import ScriptedModel
from gent_core.tools import BaseTool, tool

CATASTROPHIC = r"^(a|aa)+$"
HOURS = "a" * 100 + "b"


@pytest.fixture(autouse=True)
def _short_deadline() -> Iterator[None]:
    set_pattern_timeout(0.2)
    yield
    set_pattern_timeout(None)


def act(name: str, args: dict[str, Any]) -> str:
    return f"<action>{json.dumps({'tool': name, 'args': args})}</action>"


class Lookup(BaseTool):
    """A hand-written schema: a code pattern, and per-name patterns for the options."""

    name = "lookup"
    description = "Look a code up."
    parameters = {  # noqa: RUF012 - read-only
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": CATASTROPHIC},
            "options": {
                "type": "object",
                "patternProperties": {CATASTROPHIC: {"type": "integer"}},
                "additionalProperties": False,
            },
        },
        "required": ["code"],
    }

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[dict[str, Any]] = []

    def run(self, working_directory: Path, code: str, options: dict[str, int] | None = None) -> str:
        self.calls.append({"code": code, "options": options})
        return f"found {code}"


def test_a_catastrophic_tool_schema_pattern_is_refused_and_the_run_goes_on(
    make_agent: Callable[..., Agent],
) -> None:
    lookup = Lookup()
    model = ScriptedModel(
        [
            act("lookup", {"code": HOURS}),
            act("lookup", {"code": "aaaa", "options": {"aa": "3"}}),
            "<answer>done</answer>",
        ]
    )
    result = make_agent(model, [lookup]).run_sync("look it up")
    assert result.ok, result.message
    # the refused call is not run: the model is asked to write it again (a repair) and the
    # repaired call runs in its place
    (repair,) = result.steps[0].repairs
    assert "the pattern '^(a|aa)+$' took longer than 0.2 s on this text" in repair.error
    assert "simplify it" in repair.error
    assert repair.ok
    (accepted,) = result.steps[0].calls
    assert accepted.status == "success"
    assert lookup.calls == [{"code": "aaaa", "options": {"aa": 3}}]  # coerced by its pattern


def test_a_catastrophic_pattern_without_repairs_is_an_error_for_the_model(
    make_agent: Callable[..., Agent],
) -> None:
    lookup = Lookup()
    model = ScriptedModel([act("lookup", {"code": HOURS}), "<answer>done</answer>"])
    result = make_agent(model, [lookup], limits=Limits(max_repairs=0)).run_sync("look it up")
    assert result.ok, result.message
    (refused,) = result.steps[0].calls
    assert refused.status == "error"
    assert refused.error is not None
    assert "the pattern '^(a|aa)+$' took longer than 0.2 s on this text" in refused.error
    assert lookup.calls == []


def test_a_property_name_is_matched_with_the_deadline_too(make_agent: Callable[..., Agent]) -> None:
    lookup = Lookup()
    model = ScriptedModel(
        [
            act("lookup", {"code": "aa", "options": {HOURS: 1}}),
            act("lookup", {"code": "aa", "options": {"b": 1}}),
            "<answer>done</answer>",
        ]
    )
    result = make_agent(model, [lookup], limits=Limits(max_repairs=0)).run_sync("look it up")
    slow, unknown = (step.calls[0] for step in result.steps[:2])
    assert slow.error is not None
    assert "its name: the pattern '^(a|aa)+$' took longer than 0.2 s" in slow.error
    assert unknown.error is not None
    assert "Unknown key 'b' in 'options'. Accepted keys: names matching ^(a|aa)+$" in unknown.error
    assert lookup.calls == []


class Code(BaseModel):
    """An answer whose pattern needs Python's re (a look-behind), so pydantic uses re."""

    model_config = ConfigDict(regex_engine="python-re")

    code: str = Field(pattern=r"^(a|aa)+(?<=a)$")


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"code": {"type": "string", "pattern": CATASTROPHIC}}},
        Code,
    ],
    ids=["inline-json-schema", "pydantic-python-re"],
)
def test_a_catastrophic_answer_pattern_is_feedback_for_the_model(
    make_agent: Callable[..., Agent], schema: Any
) -> None:
    model = ScriptedModel(
        [
            f'<answer>{{"code": "{HOURS}"}}</answer>',
            '<answer>{"code": "aaa"}</answer>',
        ]
    )
    agent = make_agent(model, [], termination=JSONTermination(schema))
    result = agent.run_sync("answer with a code")
    assert result.ok, result.message
    first = result.steps[0]
    assert first.outcome == "feedback"
    assert first.feedback is not None
    assert "took longer than 0.2 s on this text" in first.feedback
    answer = result.answer if isinstance(result.answer, dict) else result.answer.model_dump()
    assert answer == {"code": "aaa"}


@tool
def tag(label: Annotated[str, Field(pattern=re.compile(CATASTROPHIC))]) -> str:
    """Tag with a label (a compiled re pattern: pydantic matches it with re)."""
    return f"tagged {label}"


def test_a_function_tool_pattern_matched_by_re_is_bounded(make_agent: Callable[..., Agent]) -> None:
    model = ScriptedModel(
        [act("tag", {"label": HOURS}), act("tag", {"label": "aaa"}), "<answer>ok</answer>"]
    )
    result = make_agent(model, [tag], limits=Limits(max_repairs=0)).run_sync("tag it")
    refused, accepted = (step.calls[0] for step in result.steps[:2])
    assert refused.error is not None
    assert "took longer than 0.2 s on this text" in refused.error
    assert accepted.output == "tagged aaa"


def test_the_tool_timeout_covers_the_schema_check(make_agent: Callable[..., Agent]) -> None:
    """The check runs in the timed task, off the event loop: the tool's 0.3 s timeout ends the
    call long before the pattern's own 5 s deadline would."""
    set_pattern_timeout(5)
    lookup = Lookup()
    lookup.timeout = 0.3
    model = ScriptedModel([act("lookup", {"code": HOURS}), "<answer>gave up</answer>"])
    result = make_agent(model, [lookup], limits=Limits(max_repairs=0)).run_sync("look it up")
    call = result.steps[0].calls[0]
    assert call.error == "Tool 'lookup' did not finish within 0.3 s."
    assert result.answer == "gave up"

"""Typed answers from a config alone: an inline JSON Schema, and import paths relative to the
config file's folder (then the current directory)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from gent_xml import XMLFormat

from gent_core._agent import Agent, FeedbackSent
from gent_core._config import ConfigError, build_components, load_config, parse_config
from gent_core._importing import import_object, import_search_path
from gent_core._terminations.typed import JSONTermination
from gent_core.errors import GentError
from gent_core.testing import ScriptedModel, TerminationConformance

VERDICT = {
    "type": "object",
    "properties": {
        "positive": {"type": "boolean", "description": "Whether the review is positive."},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "quotes": {"type": "array", "items": {"type": "string"}, "default": []},
    },
    "required": ["positive", "confidence"],
    "additionalProperties": False,
}

INLINE = """\
model: fake
format: fake
toolchain: calls
termination:
  name: json
  schema:
    type: object
    properties:
      positive: {type: boolean}
      confidence: {type: numbr}
    required: [positive]
"""


# A grammar cannot bound numbers: the conformance kit's "every output of the grammar parses"
# needs a schema without numeric bounds.
SHAPE = {
    "type": "object",
    "properties": {
        "positive": {"type": "boolean"},
        "label": {"enum": ["good", "bad"]},
        "quotes": {"type": "array", "items": {"type": "string"}},
        "score": {"type": ["integer", "null"]},
    },
    "required": ["positive", "label"],
    "additionalProperties": False,
}


class TestInlineSchemaTermination(TerminationConformance):
    def make_termination(self) -> JSONTermination:
        return JSONTermination(SHAPE)


class TestInlineSchemaWithExample(TerminationConformance):
    def make_termination(self) -> JSONTermination:
        return JSONTermination(SHAPE, example={"positive": True, "label": "good"})


def test_the_made_up_example_answer_respects_numeric_bounds() -> None:
    termination = JSONTermination(VERDICT)
    assert termination.parse(termination.example_answer("")) == {
        "positive": True,
        "confidence": 0.5,
        "quotes": [],  # the schema's default
    }


def test_the_answer_is_checked_data_with_defaults_and_coercions() -> None:
    termination = JSONTermination(VERDICT)
    assert termination.model is None
    assert termination.parse('```json\n{"positive": true, "confidence": "0.5"}\n```') == {
        "positive": True,
        "confidence": 0.5,
        "quotes": [],
    }


def test_a_wrong_answer_names_each_field_and_what_is_accepted() -> None:
    termination = JSONTermination(VERDICT)
    with pytest.raises(GentError) as caught:
        termination.parse('{"positive": "maybe", "confidence": 1.5, "extra": 1}')
    message = caught.value.model_message
    assert "- positive: expected a boolean (true or false), got 'maybe'" in message
    assert "- confidence: expected a number <= 1, got 1.5" in message
    assert "extra" in message
    with pytest.raises(GentError) as caught:
        termination.parse("{positive: yes")
    assert "- (the whole answer): not valid JSON" in caught.value.model_message


def test_the_schema_is_in_the_prompt_and_the_example_is_checked() -> None:
    termination = JSONTermination(VERDICT, example={"positive": False, "confidence": 0.2})
    guidance = termination.guidance
    assert '"confidence":{"type":"number","minimum":0,"maximum":1}' in guidance
    assert guidance.endswith('{"positive": false, "confidence": 0.2, "quotes": []}')
    with pytest.raises(GentError) as caught:
        JSONTermination(VERDICT, example={"positive": "no way", "confidence": 2})
    assert str(caught.value).startswith(
        "the example answer does not match the answer schema: positive: expected a boolean"
    )
    assert "confidence: expected a number <= 1, got 2" in str(caught.value)


def test_a_schema_that_is_not_an_object_asks_for_json() -> None:
    termination = JSONTermination({"type": "string", "enum": ["yes", "no"]})
    assert termination.guidance.startswith("Your final answer, as JSON (no prose around it).")
    assert termination.parse('"no"') == "no"


def test_an_agent_run_gives_feedback_then_the_checked_answer() -> None:
    model = ScriptedModel(
        [
            '<answer>{"positive": true, "confidence": 3}</answer>',
            '<answer>{"positive": true, "confidence": 0.9}</answer>',
        ]
    )
    feedback: list[str] = []

    def on_event(event: object) -> None:
        if isinstance(event, FeedbackSent):
            feedback.append(event.message)

    agent = Agent(model, XMLFormat(), termination=JSONTermination(VERDICT))
    result = agent.run_sync("Review: 'Great.'", on_event=on_event)
    assert result.answer == {"positive": True, "confidence": 0.9, "quotes": []}
    assert "- confidence: expected a number <= 1, got 3" in feedback[0]


def test_a_bad_inline_schema_is_a_config_error_at_its_line(fakes: SimpleNamespace) -> None:
    loaded = parse_config(INLINE, source="agent.yaml")
    with pytest.raises(ConfigError) as caught:
        build_components(loaded, fakes.sandbox.registry())
    assert str(caught.value).startswith(
        "agent.yaml, line 10, key 'termination.schema.properties.confidence', plugin 'core': "
        "termination 'json': invalid answer schema: unknown JSON Schema type 'numbr'"
    )
    assert "accepted: integer, number, string, boolean, array, object, null" in str(caught.value)


def test_a_schema_that_is_neither_a_path_nor_a_mapping_is_refused(fakes: SimpleNamespace) -> None:
    loaded = parse_config(
        "model: fake\nformat: fake\ntoolchain: calls\ntermination: {name: json, schema: 42}\n",
        source="agent.yaml",
    )
    with pytest.raises(ConfigError, match=r"line 4, key 'termination\.schema'"):
        build_components(loaded, fakes.sandbox.registry())


# --------------------------------------------------------------------------- import paths

ANSWERS = """\
from pydantic import BaseModel


class {name}(BaseModel):
    positive: bool
"""


def _write_module(folder: Path, module: str, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{module}.py").write_text(textwrap.dedent(ANSWERS.format(name=name)))


@pytest.fixture
def clean_modules() -> Any:
    """Forget the throwaway answer modules the tests import."""
    before = set(sys.modules)
    path = list(sys.path)
    yield
    for name in set(sys.modules) - before:
        if name.startswith("gent_test_answers"):
            del sys.modules[name]
    assert sys.path == path  # the folders were on sys.path for the lookup only


def test_a_module_next_to_the_config_is_found(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fakes: SimpleNamespace,
    clean_modules: None,
) -> None:
    project = tmp_path / "project"
    _write_module(project, "gent_test_answers_a", "Verdict")
    (project / "agent.yaml").write_text(
        "model: fake\nformat: fake\ntoolchain: calls\n"
        "termination: {name: json, schema: 'gent_test_answers_a:Verdict'}\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    components = build_components(load_config(project / "agent.yaml"), fakes.sandbox.registry())
    termination = components.termination
    assert isinstance(termination, JSONTermination)
    assert termination.model is not None and termination.model.__name__ == "Verdict"


def test_a_module_in_the_current_directory_is_found(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fakes: SimpleNamespace,
    clean_modules: None,
) -> None:
    _write_module(tmp_path / "cwd", "gent_test_answers_b", "Answer")
    (tmp_path / "configs").mkdir()
    config = tmp_path / "configs" / "agent.yaml"
    config.write_text(
        "model: fake\nformat: fake\ntoolchain: calls\n"
        "termination: {name: json, schema: 'gent_test_answers_b:Answer'}\n"
    )
    monkeypatch.chdir(tmp_path / "cwd")
    components = build_components(load_config(config), fakes.sandbox.registry())
    assert isinstance(components.termination, JSONTermination)


def test_a_missing_module_says_where_it_was_looked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clean_modules: None
) -> None:
    monkeypatch.chdir(tmp_path)
    with import_search_path(tmp_path / "here"), pytest.raises(GentError) as caught:
        import_object("gent_test_answers_missing:Verdict")
    message = str(caught.value)
    assert "No module named 'gent_test_answers_missing'" in message
    assert f"looked in the installed packages and PYTHONPATH, then {tmp_path / 'here'}" in message
    with pytest.raises(GentError, match="invalid import path"):
        import_object("nocolon")


def test_a_module_that_fails_to_import_is_not_looked_for_elsewhere(
    tmp_path: Path, clean_modules: None
) -> None:
    (tmp_path / "gent_test_answers_broken.py").write_text("import gent_test_no_such_dependency\n")
    with import_search_path(tmp_path), pytest.raises(GentError) as caught:
        import_object("gent_test_answers_broken:X")
    assert "No module named 'gent_test_no_such_dependency'" in str(caught.value)

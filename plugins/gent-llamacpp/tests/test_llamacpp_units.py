"""Fast unit tests of gent-llamacpp: stop sequences, options, prompts, example arguments."""

from __future__ import annotations

import asyncio
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from gent_llamacpp.engine import resolve_binding
from gent_llamacpp.model import LlamaCppModel
from gent_llamacpp.stops import StopMatcher
from gent_prompt import TRANSCRIPT_STOP, render_prompt
from hypothesis import given
from hypothesis import strategies as st
from llamacpp_helpers import CHAINS, FORMATS, TOOLS, Answer, make_structure

from gent_core import JSONTermination
from gent_core.errors import ConfigError, ModelError
from gent_core.grammar import GrammarMatcher, build_agent_grammar
from gent_core.guidance import example_arguments
from gent_core.messages import Message
from gent_core.model import ModelIdentity, ModelRequest
from gent_core.sections import FormattedSection


def run_matcher(stops: list[str], pieces: list[str]) -> tuple[str, bool]:
    matcher = StopMatcher(stops)
    out = "".join(matcher.feed(piece) for piece in pieces) + matcher.flush()
    return out, matcher.stopped


@given(
    st.text(alphabet="ab<>/", max_size=40),
    st.lists(st.text(alphabet="ab<>/", min_size=1, max_size=4), max_size=3),
    st.lists(st.integers(min_value=0, max_value=40), max_size=6),
)
def test_stop_matcher_cuts_at_the_first_stop_however_text_is_split(
    text: str, stops: list[str], cuts: list[int]
) -> None:
    bounds = sorted({0, len(text), *[min(cut, len(text)) for cut in cuts]})
    pieces = [text[a:b] for a, b in itertools.pairwise(bounds)]
    found = [index for stop in stops if (index := text.find(stop)) >= 0]
    expected = text[: min(found)] if found else text
    assert run_matcher(stops, pieces) == (expected, bool(found))


def test_stop_matcher_ignores_text_after_the_stop() -> None:
    matcher = StopMatcher(["</action>"])
    assert matcher.feed("<action>x</act") == "<action>x"
    assert matcher.feed("ion> more") == ""
    assert matcher.stopped and matcher.feed("again") == "" and matcher.flush() == ""


def test_options_are_validated_with_clear_errors() -> None:
    with pytest.raises(ConfigError, match="n_ctx"):
        LlamaCppModel(n_ctx=10)
    with pytest.raises(ConfigError, match="unknown_option"):
        LlamaCppModel(unknown_option=True)
    model = LlamaCppModel(temperature=0.0, grammar=False)
    assert model.options.temperature == 0.0 and model.options.grammar is False
    assert model.describe().startswith("llamacpp ")


def test_listing_plugins_does_not_import_a_binding() -> None:
    code = (
        "import sys, gent_llamacpp.plugin as p; p.gent_register_models(); "
        "from gent_llamacpp import LlamaCppModel; LlamaCppModel(binding='xllamacpp'); "
        "print([m for m in ('llama_cpp', 'xllamacpp') if m in sys.modules])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_binding_option_names_what_is_accepted() -> None:
    assert LlamaCppModel().options.binding == "auto"
    assert LlamaCppModel(binding="llama-cpp-python").options.binding == "llama-cpp-python"
    with pytest.raises(ConfigError, match="binding") as raised:
        LlamaCppModel(binding="llama_cpp")
    assert "xllamacpp" in str(raised.value) and "llama-cpp-python" in str(raised.value)


def test_a_missing_binding_is_a_model_error_saying_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *args: None if name in ("xllamacpp", "llama_cpp") else real(name, *args),
    )
    for choice in ("auto", "xllamacpp", "llama-cpp-python"):
        model = LlamaCppModel(binding=choice)
        with pytest.raises(ModelError) as raised:
            asyncio.run(model.load())
        assert "is not installed" in str(raised.value) or "no llama.cpp binding" in str(
            raised.value
        )
        assert "pip install xllamacpp" in (raised.value.hint or "")
        assert "gent-llamacpp[llama-cpp-python]" in (raised.value.hint or "")


@pytest.mark.llama  # both bindings installed
def test_auto_prefers_the_prebuilt_binding() -> None:
    # Both are installed in the test environment; auto takes xllamacpp, the prebuilt one.
    assert resolve_binding("auto") == "xllamacpp"
    assert resolve_binding("llama-cpp-python") == "llama-cpp-python"


def test_example_arguments_are_valid_for_the_tools() -> None:
    for tool in TOOLS:
        arguments = example_arguments(tool.parameters)
        tool.validate_arguments(arguments)
        required = tool.parameters.get("required", [])
        assert set(required) <= set(arguments)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("chain", CHAINS)
def test_few_shot_prompt_shows_examples_in_the_agents_own_format(fmt: str, chain: str) -> None:
    structure = make_structure(fmt, chain)
    messages = [Message.system("You are an agent."), Message.user("What is 17 * 23?")]
    prompt = render_prompt(messages, structure, few_shot=True)
    assert prompt.startswith("You are an agent.")
    example, real = prompt.split("Now the real task:")
    assert "What is 17 * 23?" in real and "What is 17 * 23?" not in example
    # three examples, each a task the agent answers
    examples = re.split(r"\n\n(?=<task>|# task)", example.strip())
    parsed = [structure.format.parse(text, structure.sections) for text in examples]
    assert [[section.name for section in one][-1] for one in parsed] == ["answer"] * 3
    assert structure.toolchain is not None
    calls = [
        structure.toolchain.parse(section.content)
        for one in parsed
        for section in one.sections
        if section.name == "action"
    ]
    # one example writes two calls in one action, one writes one call, one none
    assert sorted(len(group) for group in calls) == [1, 2]
    # the examples call made-up tools, never the agent's: no value for a small model to copy
    own = {tool.name for tool in TOOLS}
    assert all(call.tool not in own for group in calls for call in group)
    # the example that answers without a tool is an output the grammar allows
    matcher = GrammarMatcher(build_agent_grammar(structure).text)
    first = structure.format.format_sections(
        [FormattedSection(s.name, s.content) for s in parsed[0].sections]
    )
    assert [section.name for section in parsed[0]] == ["thinking", "answer"]
    assert matcher.matches(first)
    assert prompt.endswith("\n")


def test_render_request_is_the_raw_prompt_few_shot_included() -> None:
    structure = make_structure("markdown", "yaml")
    request = ModelRequest([Message.system("Sys."), Message.user("Q?")], structure=structure)
    model = LlamaCppModel(few_shot=True)
    assert model.render_request(request) == render_prompt(request.messages, structure)
    assert "Examples of the format:" in model.render_request(request)
    assert "Examples of the format:" not in LlamaCppModel(few_shot=False).render_request(request)


def test_conversation_keeps_outputs_and_observations_as_written() -> None:
    structure = make_structure("xml", "json")
    output = '<thinking>\nx\n</thinking>\n<action>\n{"tool": "calculator", "args": {}}\n</action>'
    observation = "<observation>\n<calculator>\n391\n</calculator>\n</observation>"
    messages = [
        Message.system("Sys."),
        Message.user("Task?"),
        Message.assistant(output),
        Message.user(observation),
    ]
    prompt = render_prompt(messages, structure, few_shot=False)
    assert prompt == f"Sys.\n<task>\nTask?\n</task>\n{output}\n{observation}\n"


def test_json_termination_example_answer_validates() -> None:
    structure = make_structure("markdown", "yaml", JSONTermination(Answer))
    prompt = render_prompt([Message.user("Q")], structure, few_shot=True)
    parsed = structure.format.parse(prompt.split("Now the real task:")[0], structure.sections)
    answer = parsed.sections[-1]
    assert answer.name == "answer"
    assert isinstance(JSONTermination(Answer).parse(answer.content), Answer)


def test_prompt_without_structure_is_a_transcript() -> None:
    prompt = render_prompt([Message.system("S"), Message.user("Hi")], None)
    assert prompt == "S\n\nUser: Hi\n\nAssistant:"
    assert TRANSCRIPT_STOP == "\nUser:"


def test_the_model_names_itself_for_telemetry(tmp_path: Path) -> None:
    model_file = tmp_path / "tiny.gguf"
    assert LlamaCppModel(model_path=str(model_file)).identity() == ModelIdentity(
        "llamacpp", "tiny.gguf", "text_completion"
    )
    assert LlamaCppModel().identity().name == "gemma-3-270m"

"""Raw prompts of histories recorded with native function calling: assistant tool calls and
``role: tool`` results are written as the agent would have written them, never labelled as
the assistant's own words."""

from __future__ import annotations

from gent_json import JSONToolChain
from gent_markdown import MarkdownFormat
from gent_prompt.base_prompt import render_prompt
from gent_xml import XMLFormat
from gent_yaml import YAMLToolChain

from gent_core import TextTermination
from gent_core.formats import TextFormat
from gent_core.messages import IMAGE_OMITTED, ImagePart, Message, MessageToolCall, TextPart
from gent_core.model import OutputStructure
from gent_core.sections import TextSection
from gent_core.toolchain import ToolChain
from gent_core.tools import tool


@tool
def calculator(expression: str) -> float:
    """Evaluate an expression."""
    return 0.0


@tool
def current_time(timezone: str | None = None) -> dict[str, str]:
    """Tell the time."""
    return {}


def structure(fmt: TextFormat, chain: ToolChain) -> OutputStructure:
    sections = [TextSection("thinking", "Reasoning."), chain, TextTermination()]
    return OutputStructure(fmt, sections, chain, sections[-1])  # type: ignore[arg-type]


HISTORY = [
    Message.system("Sys."),
    Message.user("What is 17 * 23, and the time in Paris?"),
    Message.assistant(
        "I need both.",
        tool_calls=[
            MessageToolCall.of("call_1", "calculator", {"expression": "17 * 23"}),
            MessageToolCall.of("call_2", "current_time", {"timezone": "Europe/Paris"}),
        ],
    ),
    Message.tool_result("call_1", "391", name="calculator"),
    Message.tool_result("call_2", "Unknown time zone", name="current_time", is_error=True),
]


def test_native_calls_and_results_become_an_action_and_an_observation() -> None:
    shape = structure(XMLFormat(), JSONToolChain([calculator, current_time]))
    prompt = render_prompt(HISTORY, shape, few_shot=False)
    calls = (
        '[{"tool": "calculator", "args": {"expression": "17 * 23"}}, '
        '{"tool": "current_time", "args": {"timezone": "Europe/Paris"}}]'
    )
    assert prompt == (
        "Sys.\n"
        "<task>\nWhat is 17 * 23, and the time in Paris?\n</task>\n"
        f"<thinking>\nI need both.\n</thinking>\n<action>\n{calls}\n</action>\n"
        "<observation>\n<calculator>\n391\n</calculator>\n"
        "<current_time>\nError: Unknown time zone\n</current_time>\n</observation>\n"
    )
    assert "Assistant:" not in prompt


def test_the_action_is_written_by_the_agents_own_chain_and_format() -> None:
    shape = structure(MarkdownFormat(), YAMLToolChain([calculator, current_time]))
    prompt = render_prompt(HISTORY[:4], shape, few_shot=False)
    action = prompt.split("# action\n", 1)[1].split("# observation", 1)[0]
    assert [(call.tool, call.args) for call in shape.toolchain.parse(action)] == [  # type: ignore[union-attr]
        ("calculator", {"expression": "17 * 23"}),
        ("current_time", {"timezone": "Europe/Paris"}),
    ]
    assert prompt.rstrip().endswith("# observation\n\n## calculator\n391")
    assert "# thinking\nI need both." in prompt


def test_arguments_that_are_not_json_are_shown_as_written() -> None:
    shape = structure(XMLFormat(), JSONToolChain([calculator]))
    broken = Message.assistant(tool_calls=[MessageToolCall("c1", "calculator", "{oops")])
    prompt = render_prompt([Message.user("Q"), broken], shape, few_shot=False)
    assert "calls calculator with {oops" in prompt


def test_a_plain_transcript_labels_tool_calls_and_results() -> None:
    prompt = render_prompt(HISTORY, None)
    assert prompt == (
        "Sys.\n\n"
        "User: What is 17 * 23, and the time in Paris?\n\n"
        "Assistant: I need both.\n"
        '[calls calculator with {"expression": "17 * 23"}]\n'
        '[calls current_time with {"timezone": "Europe/Paris"}]\n\n'
        "Tool result of calculator: 391\n\n"
        "Tool result of current_time (error): Unknown time zone\n\n"
        "Assistant:"
    )


def test_a_plain_transcript_says_where_an_image_was_left_out() -> None:
    """A base model reads no image: the transcript says one was there (as gent-openai's own
    transcript did before it used this one), instead of dropping it silently."""
    image = ImagePart(b"\x89PNG", "image/png")
    prompt = render_prompt(
        [
            Message.system([TextPart("Sys."), image]),
            Message.user([TextPart("What is this?"), image, image]),
            Message.user([image]),
        ],
        None,
    )
    assert prompt == (
        f"Sys.\n{IMAGE_OMITTED}\n\n"
        f"User: What is this?\n{IMAGE_OMITTED}\n\n"
        f"User: {IMAGE_OMITTED}\n\n"
        "Assistant:"
    )

"""Text -> native: the accepted forms, validation, degradation and exact round trips."""

from __future__ import annotations

import itertools
import json
import logging
from typing import Any

import pytest
from gent_natural.native_to_text import to_text
from gent_natural.openai_writer import messages_to_openai
from gent_natural.options import NaturalOptions
from gent_natural.reader import read_text
from gent_natural.text_to_native import convert_to_native, to_native
from natural_helpers import OPENAI_CONVERSATION, TOOLS, conversation

from gent_core.formats import TextFormat
from gent_core.messages import ImagePart, Message, MessageToolCall, TextPart
from gent_core.testing import PluginSandbox
from gent_core.toolchain import ToolChain


def registry_component(kind: str, name: str, **options: Any) -> Any:
    sandbox = PluginSandbox()
    sandbox.load_installed()
    return sandbox.registry().create(kind, name, **options)  # type: ignore[arg-type]


def calls_of(messages: list[Message]) -> list[tuple[str, dict[str, Any]]]:
    return [(c.name, c.parsed_arguments()) for m in messages for c in m.tool_calls]


# --------------------------------------------------------------------------- accepted forms


@pytest.mark.parametrize(
    "body",
    [
        '{"city": "Paris"}',
        '\n{\n  "city": "Paris"\n}\n',
        '\n```json\n{"city": "Paris"}\n```\n',
        "{'city': 'Paris',}",
        '{"name": "get_weather", "arguments": {"city": "Paris"}}',
    ],
)
def test_named_call_with_a_json_body_fenced_or_not(body: str) -> None:
    messages = read_text(f'<tool_call name="get_weather">{body}</tool_call>')
    assert calls_of(messages) == [("get_weather", {"city": "Paris"})]
    assert messages[0].tool_calls[0].id == "call_0"


def test_named_call_with_an_empty_body_takes_no_arguments() -> None:
    assert calls_of(read_text('<tool_call name="now"></tool_call>')) == [("now", {})]


@pytest.mark.parametrize(
    "body",
    [
        '{"name": "get_weather", "arguments": {"city": "Paris"}}',
        '{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}',
        '```json\n{"tool": "get_weather", "args": {"city": "Paris"}}\n```',
        '{"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}',
    ],
)
def test_hermes_qwen_form(body: str) -> None:
    messages = read_text(f"<tool_call>\n{body}\n</tool_call>")
    assert calls_of(messages) == [("get_weather", {"city": "Paris"})]


def test_hermes_list_gives_parallel_calls() -> None:
    text = '<tool_call>[{"name": "now"}, {"name": "get_weather", "arguments": {"city": "Rome"}}]'
    messages = read_text(text + "</tool_call>")
    assert len(messages) == 1
    assert calls_of(messages) == [("now", {}), ("get_weather", {"city": "Rome"})]


def test_tags_are_case_insensitive_and_allow_spaces() -> None:
    messages = read_text("<TOOL_CALL name='now' >{}</Tool_Call >")
    assert calls_of(messages) == [("now", {})]


def test_prose_before_stays_content_and_prose_after_follows() -> None:
    messages = read_text(
        "I will check.\n"
        '<tool_call name="get_weather">{"city": "Paris"}</tool_call>\n'
        '<tool_call name="now">{}</tool_call>\n'
        "Waiting for the results."
    )
    assert [m.role for m in messages] == ["assistant", "assistant"]
    assert messages[0].text == "I will check."
    assert [c.name for c in messages[0].tool_calls] == ["get_weather", "now"]
    assert messages[1] == Message.assistant("Waiting for the results.")


def test_each_response_becomes_a_tool_message_linked_by_id() -> None:
    messages = read_text(
        '<tool_call name="get_weather">{"city": "Paris"}</tool_call>\n'
        '<tool_response name="get_weather">rainy</tool_response>\n---\n'
        '<tool_call name="now">{}</tool_call>\n'
        '<tool_response name="now" error="true">clock broken</tool_response>'
    )
    assert [m.role for m in messages] == ["assistant", "tool", "tool"]
    first, second = messages[0].tool_calls
    assert messages[1] == Message.tool_result(first.id, "rainy", name="get_weather")
    assert messages[2] == Message.tool_result(second.id, "clock broken", name="now", is_error=True)


def test_gent_action_sections_with_a_format_and_chain() -> None:
    text_format = registry_component("format", "xml")
    chain = registry_component("toolchain", "json", tools=TOOLS)
    assert isinstance(text_format, TextFormat) and isinstance(chain, ToolChain)
    text = (
        "<thinking>I need the weather.</thinking>\n"
        '<action>[{"tool": "get_weather", "args": {"city": "Paris"}}, {"tool": "now"}]</action>\n'
        '<observation>\n<get_weather>\n{"temp": 21}\n</get_weather>\n'
        "<now>\nError: clock broken\n</now>\n</observation>\n"
        "It is 21C."
    )
    messages = read_text(text, text_format=text_format, chain=chain, tools=TOOLS)
    assert [m.role for m in messages] == ["assistant", "tool", "tool", "assistant"]
    assert messages[0].text == "<thinking>I need the weather.</thinking>"
    assert calls_of(messages) == [("get_weather", {"city": "Paris"}), ("now", {})]
    assert messages[1].text == '{"temp": 21}' and not messages[1].is_error
    assert messages[2].text == "Error: clock broken" and messages[2].is_error
    assert messages[3].text == "It is 21C."


def test_a_formats_own_tool_call_sections_are_read() -> None:
    markdown = registry_component("format", "markdown")
    native = [
        Message.user("Weather?"),
        Message.assistant(tool_calls=[MessageToolCall.of("x", "get_weather", {"city": "Oslo"})]),
        Message.tool_result("x", '{"temp": -3}'),
    ]
    text = to_text(native, text_format=markdown)
    back = to_native(text, text_format=markdown)
    assert calls_of(back) == [("get_weather", {"city": "Oslo"})]
    assert back[2].text == '{"temp": -3}' and back[2].tool_call_id == "call_0"


# --------------------------------------------------------------------------- validation


def test_arguments_are_validated_when_the_tools_are_known(caplog: pytest.LogCaptureFixture) -> None:
    text = (
        '<tool_call name="get_weather">{"town": "Paris"}</tool_call>\n'
        '<tool_call name="get_wether">{"city": "Paris"}</tool_call>\n'
        '<tool_call name="get_weather">{"city": "Paris"}</tool_call>'
    )
    with caplog.at_level(logging.WARNING, logger="gent_natural"):
        conversion = convert_to_native([Message.assistant(text)], tools=TOOLS)
    # every call is kept, with its arguments as written; the problems are reported
    assert calls_of(conversion.messages) == [
        ("get_weather", {"town": "Paris"}),
        ("get_wether", {"city": "Paris"}),
        ("get_weather", {"city": "Paris"}),
    ]
    assert len(conversion.problems) == 2
    assert "call call_0 to 'get_weather'" in conversion.problems[0]
    assert "city" in conversion.problems[0]
    assert "unknown tool 'get_wether' (available: get_weather, now)" in conversion.problems[1]
    assert len(caplog.records) == 2


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ('{"city": Paris}', "the arguments are not valid JSON: invalid JSON at line 1, column 10"),
        ("{city: Paris}", "the arguments must be one JSON object (no JSON object found)"),
        ('["Paris"]', "the arguments must be one JSON object (not one JSON object found)"),
        ('{"city": "Paris"', "the arguments are not valid JSON: tool call cut off"),
    ],
)
def test_arguments_that_are_not_a_json_object_are_kept_as_written(body: str, problem: str) -> None:
    conversion = convert_to_native(
        [Message.assistant(f'<tool_call name="get_weather">{body}</tool_call>')]
    )
    (message,) = conversion.messages
    assert message.tool_calls[0].arguments == body
    assert problem in conversion.problems[0]


def test_what_cannot_be_read_stays_text_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    original = Message.assistant(
        'Example: <tool_call>{"city": "Paris"}</tool_call> and '
        '<tool_response name="x">orphan</tool_response> and <tool_call name="now">{'
    )
    with caplog.at_level(logging.WARNING, logger="gent_natural"):
        conversion = convert_to_native([original])
    assert conversion.messages == [original]
    assert conversion.passed_through == 1
    problems = " | ".join(conversion.problems)
    assert "has no 'tool' field" in problems
    assert "answers no call" in problems
    assert "a <tool_call> was never closed" in problems
    assert len(caplog.records) == 3


def test_only_the_chosen_roles_are_read_and_ids_never_collide() -> None:
    messages = [
        Message.user('<tool_call name="now">{}</tool_call>'),
        Message.assistant(tool_calls=[MessageToolCall("call_0", "now")]),
        Message.tool_result("call_0", "12:00"),
        Message.assistant('<tool_call name="now">{}</tool_call>'),
    ]
    result = to_native(messages)
    assert result[:3] == messages[:3]
    assert result[3].tool_calls[0].id == "call_1"
    assert to_native(messages, roles=("user",))[0].tool_calls[0].id == "call_1"


def test_the_source_messages_metadata_name_and_images_go_to_the_first_message() -> None:
    image = ImagePart(b"png")
    source = Message(
        "assistant",
        (TextPart('Look <tool_call name="now">{}</tool_call> done'), image),
        name="bot",
        metadata={"id": "m1"},
    )
    first, second = to_native([source])
    assert first.metadata == {"id": "m1"} and first.name == "bot"
    assert first.parts == (TextPart("Look "), image)
    assert second == Message.assistant(" done")


# --------------------------------------------------------------------------- round trips


def test_openai_conversation_round_trips_text_native_text_unchanged() -> None:
    text = to_text(conversation())
    native = to_native(text)
    assert to_text(native) == text
    # and the native side is the conversation again, up to the generated ids
    expected = messages_to_openai(conversation())
    got = messages_to_openai(native)
    ids = {
        call["id"]: new["id"]
        for old, mine in zip(expected, got, strict=True)
        for call, new in zip(old.get("tool_calls") or [], mine.get("tool_calls") or [], strict=True)
    }
    for message in expected:
        for call in message.get("tool_calls") or []:
            call["id"] = ids[call["id"]]
            call["function"]["arguments"] = json.dumps(json.loads(call["function"]["arguments"]))
        if message["role"] == "tool":
            message["tool_call_id"] = ids[message["tool_call_id"]]
            message["name"] = "get_weather" if message["tool_call_id"] != ids["call_c"] else "now"
            if message["content"].startswith("{"):
                message["content"] = json.dumps(json.loads(message["content"]))
    assert got == expected
    assert len(OPENAI_CONVERSATION) == len(got)


@pytest.mark.parametrize(
    ("pretty", "separator", "role_strategy"),
    list(
        itertools.product([True, False], ["---", "~~~"], ["preserve", "always_user", "by_content"])
    ),
)
def test_round_trip_holds_for_every_option(
    pretty: bool, separator: str, role_strategy: Any
) -> None:
    options = NaturalOptions(
        pretty_print_json=pretty, separator=separator, role_strategy=role_strategy
    )
    text = to_text(conversation(), options)
    native = to_native(text, separator=separator, roles=("assistant", "user"))
    assert to_text(native, options) == text


def test_round_trip_through_the_xml_format() -> None:
    xml = registry_component("format", "xml")
    text = to_text(conversation(), text_format=xml)
    assert to_text(to_native(text, text_format=xml), text_format=xml) == text

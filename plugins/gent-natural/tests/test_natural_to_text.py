"""Native -> text: the XML format of native calls, its options and graceful degradation."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import pytest
from gent_natural.native_to_text import convert_to_text, to_text
from gent_natural.options import NaturalOptions
from gent_natural.streaming import stream_native_to_text
from gent_natural.tags import MISSING_RESULT
from natural_helpers import call, conversation, items_of

from gent_core.formats import TextFormat
from gent_core.messages import ImagePart, Message, TextPart
from gent_core.testing import PluginSandbox

WEATHER = call("call_1", "get_weather", '{"city": "Paris", "unit": "c"}')


def turn(*messages: Message) -> list[Message]:
    return [Message.user("Weather?"), *messages]


# ------------------------------------------------------------------------ the reference behaviour


def test_transform_to_natural_format_single_tool_call_produces_correct_xml_format() -> None:
    messages = turn(
        Message.assistant(tool_calls=[WEATHER]),
        Message.tool_result("call_1", '{"temp": 21, "sky": ["rain", "wind"]}'),
    )
    result = to_text(messages)
    assert len(result) == 2
    assert result[0] is messages[0]
    assert result[1].role == "assistant"
    assert result[1].tool_calls == ()
    assert result[1].text == (
        '<tool_call name="get_weather">\n'
        "{\n"
        '  "city": "Paris",\n'
        '  "unit": "c"\n'
        "}\n"
        "</tool_call>\n"
        '<tool_response name="get_weather">\n'
        "{\n"
        '  "temp": 21,\n'
        '  "sky": [\n'
        '    "rain",\n'
        '    "wind"\n'
        "  ]\n"
        "}\n"
        "</tool_response>"
    )


def test_combine_message_sequence_text_plus_aggregate_plus_text_combines_correctly() -> None:
    messages = turn(
        Message.assistant("Let me look that up.", tool_calls=[WEATHER]),
        Message.tool_result("call_1", "Rainy, 21C"),
        Message.assistant("It is rainy in Paris."),
        Message.user("Thanks"),
    )
    result = to_text(messages)
    assert [m.role for m in result] == ["user", "assistant", "user"]
    assert result[1].text == (
        "Let me look that up.\n"
        '<tool_call name="get_weather">\n{\n  "city": "Paris",\n  "unit": "c"\n}\n</tool_call>\n'
        '<tool_response name="get_weather">\nRainy, 21C\n</tool_response>\n'
        "It is rainy in Paris."
    )
    assert result[2] is messages[-1]


def test_streaming_transformation_partial_sequences_buffers_appropriately() -> None:
    messages = turn(
        Message.assistant("Checking."),
        Message.assistant(tool_calls=[WEATHER]),
        Message.tool_result("call_1", "Rainy"),
        Message.assistant("Rainy."),
        Message.user("And now?"),
        Message.assistant("No idea."),
    )
    yielded: list[tuple[int, Message]] = []  # (messages fed so far, message yielded)
    fed = 0

    async def source() -> Any:
        nonlocal fed
        for message in messages:
            fed += 1
            yield message

    async def collect() -> None:
        async for message in stream_native_to_text(source()):
            yielded.append((fed, message))

    asyncio.run(collect())
    # the user message comes out at once; the turn is held until the next user message ends
    # it, then comes out as one message; the last turn is released at the end of the stream
    assert [(count, m.role) for count, m in yielded] == [
        (1, "user"),
        (6, "assistant"),
        (6, "user"),
        (7, "assistant"),
    ]
    assert [m for _, m in yielded] == to_text(messages)
    assert yielded[1][1].text.startswith("Checking.\n<tool_call")
    assert yielded[3][1] is messages[-1]


def test_transformation_failure_invalid_message_passes_through_gracefully(
    caplog: pytest.LogCaptureFixture,
) -> None:
    orphan = Message.tool_result("call_404", "a result nobody asked for")
    messages = [Message.user("hi"), Message.assistant("Hello."), orphan, Message.user("ok")]
    with caplog.at_level(logging.INFO, logger="gent_natural"):
        conversion = convert_to_text(messages)
    assert conversion.messages == messages
    assert conversion.messages[2] is orphan
    assert conversion.passed_through == 4 and conversion.transformed == 0
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "messages 1-2 passed through unchanged" in warnings[0].getMessage()
    assert "call_404" in warnings[0].getMessage()
    assert conversion.problems == [warnings[0].getMessage().removeprefix("natural: ")]


# --------------------------------------------------------------------------- the format


def test_several_calls_are_separated_by_a_line_and_paired_by_id_then_position() -> None:
    messages = turn(
        Message.assistant(
            tool_calls=[call("a", "one"), call("b", "two"), call("c", "three")],
        ),
        Message.tool_result("c", "third"),
        Message("tool", (TextPart("first, no id"),)),
        Message.tool_result("unknown", "second, unknown id"),
    )
    text = to_text(messages)[1].text
    assert text == (
        '<tool_call name="one">\n{}\n</tool_call>\n'
        '<tool_response name="one">\nfirst, no id\n</tool_response>\n'
        "---\n"
        '<tool_call name="two">\n{}\n</tool_call>\n'
        '<tool_response name="two">\nsecond, unknown id\n</tool_response>\n'
        "---\n"
        '<tool_call name="three">\n{}\n</tool_call>\n'
        '<tool_response name="three">\nthird\n</tool_response>'
    )


def test_a_missing_result_is_written_as_such() -> None:
    messages = turn(Message.assistant(tool_calls=[call("a", "now")]))
    assert to_text(messages)[1].text == (
        f'<tool_call name="now">\n{{}}\n</tool_call>\n'
        f'<tool_response name="now">\n{MISSING_RESULT}\n</tool_response>'
    )


def test_calls_of_the_next_assistant_message_follow_without_separator() -> None:
    messages = turn(
        Message.assistant(tool_calls=[call("a", "one")]),
        Message.tool_result("a", "1"),
        Message.assistant(tool_calls=[call("b", "two")]),
        Message.tool_result("b", "2"),
    )
    text = to_text(messages)[1].text
    assert "---" not in text
    assert '</tool_response>\n<tool_call name="two">' in text


def test_messages_without_calls_pass_through_unchanged() -> None:
    messages = [
        Message.system("s"),
        Message.user("u"),
        Message.assistant("a"),
        Message.assistant("b"),
    ]
    result = to_text(messages)
    assert all(out is original for out, original in zip(result, messages, strict=True))


def test_a_failed_call_is_marked_and_a_result_holding_the_closing_tag_is_wrapped() -> None:
    messages = turn(
        Message.assistant(tool_calls=[call("a", "read_file")]),
        Message.tool_result("a", "x </tool_response> y", is_error=True),
    )
    text = to_text(messages)[1].text
    assert text.endswith(
        '<tool_response name="read_file" error="true"><![CDATA[\n'
        "x </tool_response> y\n]]></tool_response>"
    )


def test_images_of_a_result_keep_their_place() -> None:
    image = ImagePart(b"png")
    messages = turn(
        Message.assistant("Look:", tool_calls=[call("a", "screenshot")]),
        Message.tool_result("a", [TextPart("the screen"), image]),
        Message.assistant("Done."),
    )
    parts = to_text(messages)[1].parts
    assert len(parts) == 3
    assert isinstance(parts[0], TextPart) and parts[0].text.endswith("</tool_response>")
    assert parts[1] is image
    assert parts[2] == TextPart("\nDone.")


def test_counts_are_logged_at_info(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="gent_natural"):
        conversion = convert_to_text(conversation())
    assert (conversion.transformed, conversion.passed_through) == (9, 3)
    infos = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert infos == ["natural: 9 messages transformed into text, 3 passed through unchanged"]


# --------------------------------------------------------------------------- options


def test_option_enabled_off_passes_everything_through() -> None:
    messages = conversation()
    assert to_text(messages, NaturalOptions(enabled=False)) == messages


def test_option_pretty_print_json_off_writes_json_as_it_was() -> None:
    messages = turn(
        Message.assistant(tool_calls=[call("a", "get_weather", '{"city":"Paris"}')]),
        Message.tool_result("a", '{"temp":21}'),
    )
    text = to_text(messages, NaturalOptions(pretty_print_json=False))[1].text
    assert text == (
        '<tool_call name="get_weather">\n{"city":"Paris"}\n</tool_call>\n'
        '<tool_response name="get_weather">\n{"temp":21}\n</tool_response>'
    )


def test_arguments_that_are_not_json_are_written_as_they_are() -> None:
    messages = turn(Message.assistant(tool_calls=[call("a", "f", "{city: Paris")]))
    assert '<tool_call name="f">\n{city: Paris\n</tool_call>' in to_text(messages)[1].text


def test_option_max_response_length_cuts_with_a_note() -> None:
    long = "x" * 5000
    messages = turn(Message.assistant(tool_calls=[call("a", "f")]), Message.tool_result("a", long))
    default = to_text(messages)[1].text
    assert "x" * 4000 + "\n[... 1000 more characters cut]\n</tool_response>" in default
    assert "x" * 4001 not in default
    short = to_text(messages, NaturalOptions(max_response_length=10))[1].text
    assert "xxxxxxxxxx\n[... 4990 more characters cut]" in short
    whole = to_text(messages, NaturalOptions(max_response_length=None))[1].text
    assert long + "\n</tool_response>" in whole


def test_option_separator() -> None:
    messages = turn(Message.assistant(tool_calls=[call("a", "one"), call("b", "two")]))
    text = to_text(messages, NaturalOptions(separator="* * *"))[1].text
    assert "</tool_response>\n* * *\n<tool_call" in text


@pytest.mark.parametrize(
    ("strategy", "ending_with_response", "ending_with_text"),
    [
        ("preserve", "assistant", "assistant"),
        ("always_user", "user", "user"),
        ("always_assistant", "assistant", "assistant"),
        ("by_content", "user", "assistant"),
    ],
)
def test_option_role_strategy(
    strategy: Any, ending_with_response: str, ending_with_text: str
) -> None:
    options = NaturalOptions(role_strategy=strategy)
    calls = [Message.assistant(tool_calls=[call("a", "f")]), Message.tool_result("a", "r")]
    assert to_text(turn(*calls), options)[1].role == ending_with_response
    with_text = turn(*calls, Message.assistant("Done."))
    assert to_text(with_text, options)[1].role == ending_with_text


@pytest.mark.parametrize(
    ("strategy", "expected"),
    [
        ("last_wins", {"a": 3, "b": 2, "c": 4}),
        ("first_wins", {"a": 1, "b": 2, "c": 4}),
        ("combine", {"a": [1, 3], "b": 2, "c": 4}),
    ],
)
def test_option_metadata_strategy(strategy: Any, expected: dict[str, Any]) -> None:
    messages = turn(
        Message("assistant", (), (call("x", "f"),), metadata={"a": 1, "b": 2}),
        Message("tool", (TextPart("r"),), tool_call_id="x", metadata={"a": 3, "b": 2}),
        Message("assistant", (TextPart("ok"),), metadata={"c": 4}),
    )
    merged = to_text(messages, NaturalOptions(metadata_strategy=strategy))[1].metadata
    assert merged == expected


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"max_response_length": 0}, "at least 1"),
        ({"max_response_length": "10"}, "whole number"),
        ({"separator": " "}, "non-blank"),
        ({"separator": "a\nb"}, "one line"),
        ({"role_strategy": "user"}, "accepted: preserve, always_user"),
        ({"metadata_strategy": "merge"}, "accepted: last_wins, first_wins, combine"),
        ({"pretty_print_json": "yes"}, "true or false"),
        ({"pretty": True}, "unknown natural option(s) pretty; accepted: enabled"),
    ],
)
def test_bad_options_say_what_is_accepted(options: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        NaturalOptions.from_mapping(options)


# --------------------------------------------------------------------------- text formats


def _format(name: str) -> TextFormat:
    sandbox = PluginSandbox()
    sandbox.load_installed()
    created = sandbox.registry().create("format", name)
    assert isinstance(created, TextFormat)
    return created


def test_a_configured_format_writes_its_own_sections() -> None:
    messages = turn(
        Message.assistant("Checking.", tool_calls=[WEATHER]),
        Message.tool_result("call_1", "Rainy"),
    )
    markdown = to_text(messages, text_format=_format("markdown"))[1].text
    assert markdown == (
        "Checking.\n"
        '# tool_call {name="get_weather"}\n{\n  "city": "Paris",\n  "unit": "c"\n}\n'
        '# tool_response {name="get_weather"}\nRainy'
    )
    xml = to_text(messages, text_format=_format("xml"))[1].text
    assert xml == to_text(messages)[1].text


def test_a_turn_the_format_cannot_write_passes_through(caplog: pytest.LogCaptureFixture) -> None:
    messages = turn(Message.assistant(tool_calls=[call("a", "x" * 2000)]))
    with caplog.at_level(logging.WARNING, logger="gent_natural"):
        result = to_text(messages, text_format=_format("markdown"))
    assert result == messages
    assert "ValueError" in caplog.records[0].getMessage()


def test_the_stream_gives_what_the_one_shot_conversion_gives() -> None:
    orphan = [Message.user("x"), Message.tool_result("nobody", "r"), Message.user("y")]
    for messages in (conversation(), orphan, conversation() + orphan):
        for options in (NaturalOptions(), NaturalOptions(enabled=False)):

            async def collect(messages: list[Message] = messages, options: Any = options) -> Any:
                stream = stream_native_to_text(items_of(messages), options)
                return [message async for message in stream]

            assert asyncio.run(collect()) == to_text(messages, options)

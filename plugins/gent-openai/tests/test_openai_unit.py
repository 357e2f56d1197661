"""Unit tests of gent-openai's own logic against a scripted local HTTP server."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest
from gent_natural import messages_to_openai
from gent_openai.model import OpenAIModel
from gent_openai.sse import sse_data
from openai_fake_server import FakeServer, Reply, chat_event, free_port

from gent_core.errors import ConfigError, ModelError
from gent_core.messages import IMAGE_OMITTED, ImagePart, Message, TextPart
from gent_core.model import ModelChunk, ModelIdentity, ModelRequest

KEY = "sk-test-SECRET-0123456789"
REQUEST = ModelRequest([Message.system("Be brief."), Message.user("Hi")], max_tokens=5)


def model(server: FakeServer, **options: Any) -> OpenAIModel:
    defaults: dict[str, Any] = {
        "base_url": server.base_url,
        "api_key": KEY,
        "model": "model-a",
        "backoff": 0.01,
        "max_backoff": 0.05,
        "max_retries": 2,
    }
    return OpenAIModel(**{**defaults, **options})


async def collect(stream: AsyncIterator[ModelChunk]) -> list[ModelChunk]:
    return [chunk async for chunk in stream]


def stream_all(m: OpenAIModel, request: ModelRequest = REQUEST) -> list[ModelChunk]:
    async def run() -> list[ModelChunk]:
        try:
            return await collect(m.stream(request))
        finally:
            await m.aclose()

    return asyncio.run(run())


def complete(m: OpenAIModel, request: ModelRequest = REQUEST) -> Any:
    async def run() -> Any:
        try:
            return await m.complete(request)
        finally:
            await m.aclose()

    return asyncio.run(run())


# ------------------------------------------------------------------ options


def test_options_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://example.invalid/v1/")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_MODEL", "env-model")
    m = OpenAIModel()
    assert m.options.root == "http://example.invalid/v1"
    assert m.options.secret() == KEY
    assert m.options.model == "env-model"
    assert OpenAIModel(model="given").options.model == "given"


def test_invalid_options_are_config_errors_naming_the_option() -> None:
    with pytest.raises(ConfigError, match="api"):
        OpenAIModel(api="embeddings")
    with pytest.raises(ConfigError, match="no_such_option"):
        OpenAIModel(no_such_option=1)
    with pytest.raises(ConfigError, match="max_retries"):
        OpenAIModel(max_retries=-1)


def test_the_key_never_shows_in_repr_describe_or_option_errors() -> None:
    m = OpenAIModel(api_key=KEY, base_url="http://127.0.0.1:9/v1")
    assert KEY not in repr(m) and KEY not in m.describe() and KEY not in repr(m.options)
    with pytest.raises(ConfigError) as info:
        OpenAIModel(api_key=KEY, temperature="hot")
    assert KEY not in str(info.value)


def test_the_model_names_itself_for_telemetry() -> None:
    chat = OpenAIModel(api_key=KEY, base_url="http://127.0.0.1:9/v1", model="my-model")
    assert chat.identity() == ModelIdentity("openai", "my-model", "chat")
    plain = OpenAIModel(base_url="http://127.0.0.1:9/v1", model="base", api="completions")
    assert plain.identity() == ModelIdentity("openai", "base", "text_completion")


# ------------------------------------------------------------------ rendering and SSE


def sent_messages(messages: list[Message], *, images: bool) -> Any:
    """The chat messages a request body holds."""
    chat = OpenAIModel(base_url="http://127.0.0.1:9/v1", model="m", supports_images=images)
    return chat.request_body(ModelRequest(messages), stream=False)["messages"]


def sent_prompt(messages: list[Message]) -> tuple[str, list[str]]:
    """The prompt and stop strings of a completions request body without a structure."""
    completions = OpenAIModel(base_url="http://127.0.0.1:9/v1", model="m", api="completions")
    body = completions.request_body(ModelRequest(messages), stream=False)
    return body["prompt"], body["stop"]


def test_chat_messages_send_images_as_data_urls_only_when_supported() -> None:
    image = ImagePart(b"\x89PNG", "image/png")
    message = Message.user([TextPart("What is this?"), image])
    sent = sent_messages([message], images=True)
    assert sent[0]["content"][0] == {"type": "text", "text": "What is this?"}
    assert sent[0]["content"][1]["image_url"]["url"] == image.data_url()
    assert sent_messages([message], images=False)[0]["content"] == f"What is this?{IMAGE_OMITTED}"


def test_completion_prompt_is_a_transcript_ending_with_the_assistant_turn() -> None:
    prompt, stop = sent_prompt(
        [Message.system("Sys."), Message.user("Q1"), Message.assistant("A1"), Message.user("Q2")]
    )
    assert prompt == "Sys.\n\nUser: Q1\n\nAssistant: A1\n\nUser: Q2\n\nAssistant:"
    assert stop == ["\nUser:"]


def test_render_request_shows_the_messages_or_the_raw_prompt_as_sent() -> None:
    from gent_prompt import render_chat, render_prompt

    from gent_core import TextTermination
    from gent_core.model import OutputStructure
    from gent_core.sections import TextSection
    from gent_core.testing import PluginSandbox

    sandbox = PluginSandbox()
    sandbox.load_installed()
    text_format = sandbox.registry().create("format", "xml")
    answer = TextTermination()
    structure = OutputStructure(text_format, [TextSection("thinking"), answer], None, answer)
    messages = [Message.system("Sys."), Message.user("Q?")]
    request = ModelRequest(messages, structure=structure)
    chat = OpenAIModel(base_url="http://127.0.0.1:9/v1", model="m", api="chat")
    assert json.loads(chat.render_request(request)) == messages_to_openai(
        render_chat(messages, structure), request=True, images=False
    )
    completions = OpenAIModel(base_url="http://127.0.0.1:9/v1", model="m", api="completions")
    assert completions.render_request(request) == render_prompt(messages, structure)
    assert "Example of the format:" in completions.render_request(request)


@pytest.mark.parametrize(("end", "size"), [("\n", 1000), ("\r\n", 3), ("\r", 1)])
def test_sse_reader_joins_multiline_data_and_skips_comments(end: str, size: int) -> None:
    lines = [": ping", "event: message", 'data: {"a":', "data: 1}", "", "data: x", ""]
    text = end.join([*lines, "data: [DONE]", "", "data: after", ""])

    async def chunks() -> AsyncIterator[str]:  # the text in pieces of `size` characters
        for start in range(0, len(text), size):
            yield text[start : start + size]

    async def run() -> list[str]:
        return [data async for data in sse_data(chunks(), 1000)]

    assert asyncio.run(run()) == ['{"a":\n1}', "x", "[DONE]"]


# ------------------------------------------------------------------ streaming


def test_streaming_reads_text_finish_reason_and_usage_from_the_final_chunk(
    fake_server: FakeServer,
) -> None:
    usage = {"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9}
    fake_server.replies.append(
        Reply(
            events=[
                chat_event("Hel"),
                chat_event("lo"),
                chat_event(finish="stop"),
                chat_event(usage=usage),
                "[DONE]",
            ]
        )
    )
    chunks = stream_all(model(fake_server))
    assert "".join(chunk.text for chunk in chunks) == "Hello"
    assert chunks[-1].finish_reason == "stop"
    assert chunks[-1].usage is not None and chunks[-1].usage.input_tokens == 7
    assert chunks[-1].usage.output_tokens == 2
    body = fake_server.posts[0].body
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["messages"][1] == {"role": "user", "content": "Hi"}
    assert body["max_tokens"] == 5
    assert fake_server.posts[0].headers["Authorization"] == f"Bearer {KEY}"


def test_rate_limits_and_server_errors_are_retried_then_succeed(fake_server: FakeServer) -> None:
    fake_server.replies += [
        Reply(429, {"error": {"message": "slow down"}}, headers={"Retry-After": "0"}),
        Reply(503, {"error": {"message": "overloaded"}}),
        Reply(events=[chat_event("ok"), chat_event(finish="stop"), "[DONE]"]),
    ]
    chunks = stream_all(model(fake_server))
    assert "".join(chunk.text for chunk in chunks) == "ok"
    assert len(fake_server.posts) == 3


def test_retries_are_bounded_and_the_error_names_status_and_attempts(
    fake_server: FakeServer,
) -> None:
    fake_server.replies += [Reply(500, {"error": {"message": "boom"}}) for _ in range(5)]
    with pytest.raises(ModelError, match=r"HTTP 500\) after 3 attempt\(s\): boom"):
        stream_all(model(fake_server, max_retries=2))
    assert len(fake_server.posts) == 3


def test_backoff_grows_exponentially_with_jitter() -> None:
    m = OpenAIModel(base_url="http://127.0.0.1:9/v1", backoff=1.0, max_backoff=5.0)
    for attempt, full in [(0, 1.0), (1, 2.0), (2, 4.0), (3, 5.0), (6, 5.0)]:
        delays = [m._delay(attempt, None) for _ in range(50)]
        assert all(full / 2 <= delay <= full for delay in delays)
        assert len(set(delays)) > 1
    assert m._delay(0, 3.0) == 3.0 and m._delay(0, 60.0) == 5.0


def test_authentication_failure_is_clear_not_retried_and_redacts_the_key(
    fake_server: FakeServer,
) -> None:
    fake_server.replies.append(Reply(401, {"error": {"message": f"Incorrect API key: {KEY}"}}))
    with pytest.raises(ModelError) as info:
        stream_all(model(fake_server))
    assert "authentication failed: check OPENAI_API_KEY" in str(info.value)
    assert KEY not in str(info.value) and KEY not in info.value.model_message
    assert len(fake_server.posts) == 1


def test_unknown_model_lists_the_servers_models(fake_server: FakeServer) -> None:
    fake_server.replies.append(
        Reply(
            404,
            {"error": {"message": "The model `nope` does not exist", "code": "model_not_found"}},
        )
    )
    with pytest.raises(ModelError) as info:
        complete(model(fake_server, model="nope"))
    text = str(info.value)
    assert "model 'nope' not found" in text and "model-a, model-b" in text
    assert [r.method for r in fake_server.requests] == ["POST", "GET"]


def test_bad_request_saying_the_model_is_unknown_also_lists_models(
    fake_server: FakeServer,
) -> None:
    fake_server.replies.append(Reply(400, {"error": {"message": "model 'x' not found"}}))
    with pytest.raises(ModelError, match="model-a, model-b"):
        stream_all(model(fake_server, model="x"))


def test_an_error_after_the_first_chunk_is_not_retried(fake_server: FakeServer) -> None:
    fake_server.replies.append(
        Reply(events=[chat_event("a"), chat_event("b"), chat_event("c")], drop_after=1)
    )
    fake_server.replies.append(Reply(events=[chat_event("retried"), "[DONE]"]))
    received: list[str] = []

    async def run() -> None:
        m = model(fake_server)
        try:
            async for chunk in m.stream(REQUEST):
                received.append(chunk.text)
        finally:
            await m.aclose()

    with pytest.raises(ModelError, match="connection lost while streaming"):
        asyncio.run(run())
    assert received == ["a"]
    assert len(fake_server.posts) == 1


def test_a_failure_before_the_first_chunk_is_retried(fake_server: FakeServer) -> None:
    fake_server.replies.append(Reply(events=[chat_event("a")], drop_after=0))
    fake_server.replies.append(Reply(events=[chat_event("fine"), "[DONE]"]))
    chunks = stream_all(model(fake_server))
    assert "".join(chunk.text for chunk in chunks) == "fine"
    assert len(fake_server.posts) == 2


def test_server_error_event_mid_stream_becomes_a_model_error(fake_server: FakeServer) -> None:
    fake_server.replies.append(Reply(events=[{"error": {"message": "out of memory"}}]))
    with pytest.raises(ModelError, match="out of memory"):
        stream_all(model(fake_server, max_retries=0))


def test_closing_the_stream_early_closes_the_http_response(fake_server: FakeServer) -> None:
    # An endless stream: the server stops writing only when the client disconnects.
    events = (chat_event(f"t{i} ") for i in itertools.count())
    fake_server.replies.append(Reply(events=events, delay=0.01))

    async def run() -> tuple[list[str], bool]:
        m = model(fake_server)
        texts: list[str] = []
        stream = m.stream(REQUEST)
        async for chunk in stream:
            texts.append(chunk.text)
            if len(texts) == 2:
                break
        try:
            # Guards against a hang (reading the endless rest, say), not speed checks. Before
            # the model (and its connection pool) is closed: the stream's own close must end
            # the response.
            await asyncio.wait_for(stream.aclose(), 60)  # type: ignore[attr-defined]
            disconnected = await asyncio.to_thread(fake_server.disconnected.wait, 60)
        finally:
            await m.aclose()
        return texts, disconnected

    texts, disconnected = asyncio.run(run())
    assert texts == ["t0 ", "t1 "]
    assert disconnected, "the server kept streaming after the stream was closed"


def test_server_down_names_the_url() -> None:
    port = free_port()  # nothing listens there
    m = OpenAIModel(base_url=f"http://127.0.0.1:{port}/v1", max_retries=1, backoff=0.01)
    with pytest.raises(ModelError) as info:
        stream_all(m)
    assert f"cannot connect to http://127.0.0.1:{port}/v1: connection refused" in str(info.value)


def test_non_streaming_completions_api_sends_a_prompt(fake_server: FakeServer) -> None:
    fake_server.replies.append(
        Reply(
            200,
            {
                "choices": [{"text": " 4", "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 3, "completion_tokens": 1},
            },
        )
    )
    response = complete(
        model(fake_server, api="completions"), ModelRequest([Message.user("1 2 3")], stop=["\n"])
    )
    assert response.text == " 4" and response.usage.input_tokens == 3
    body = fake_server.posts[0].body
    assert body["prompt"] == "User: 1 2 3\n\nAssistant:"
    assert body["stop"] == ["\n", "\nUser:"] and "stream" not in body


def test_extra_body_and_headers_are_sent(fake_server: FakeServer) -> None:
    fake_server.replies.append(Reply(200, {"choices": [{"message": {"content": "x"}}]}))
    complete(model(fake_server, extra_body={"top_k": 5}, headers={"X-Trace": "1"}))
    assert fake_server.posts[0].body["top_k"] == 5
    assert fake_server.posts[0].headers["X-Trace"] == "1"


def test_listing_plugins_does_not_import_httpx() -> None:
    code = (
        "import sys, gent_openai.plugin as p; p.gent_register_models(); "
        "print('httpx' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_invalid_json_event_is_reported(fake_server: FakeServer) -> None:
    fake_server.replies.append(Reply(events=["{not json"]))
    with pytest.raises(ModelError, match="invalid event"):
        stream_all(model(fake_server, max_retries=0))
    assert json  # the module is used by fake_server payloads


def test_chat_messages_keep_native_tool_calls_and_results() -> None:
    from gent_core.messages import Message, MessageToolCall

    call = MessageToolCall.of("call_1", "calculator", {"expression": "2 + 2"})
    messages = [
        Message.user("What is 2 + 2?"),
        Message.assistant("", tool_calls=[call]),
        Message.tool_result("call_1", "4", name="calculator"),
    ]
    written = sent_messages(messages, images=False)
    assert written[1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "calculator", "arguments": call.arguments},
            }
        ],
    }
    assert written[2] == {
        "role": "tool",
        "content": "4",
        "tool_call_id": "call_1",
        "name": "calculator",
    }


def test_completion_prompt_writes_native_calls_and_results_as_text() -> None:
    from gent_core.messages import Message, MessageToolCall

    call = MessageToolCall.of("c", "calculator", {"expression": "2 + 2"})
    prompt, _ = sent_prompt(
        [
            Message.user("What is 2 + 2?"),
            Message.assistant("", tool_calls=[call]),
            Message.tool_result("c", "4", name="calculator", is_error=False),
        ]
    )
    assert f"Assistant: [calls calculator with {call.arguments}]" in prompt
    assert "Tool result of calculator: 4" in prompt

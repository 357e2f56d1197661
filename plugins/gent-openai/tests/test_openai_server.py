"""gent-openai against a real OpenAI-compatible server: llama_cpp.server with Gemma 3 270M."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from gent_openai.model import OpenAIModel
from openai_fake_server import free_port
from openai_llama_server import LlamaServer

from gent_core.errors import ModelError
from gent_core.messages import Message
from gent_core.model import ModelChunk, ModelRequest, ModelResponse

pytestmark = [pytest.mark.slow, pytest.mark.model]

COUNTING = [Message.system("Counting: 1, 2, 3, 4, 5, 6,")]


def run(model: OpenAIModel, coroutine: Any) -> Any:
    async def wrapper() -> Any:
        try:
            return await coroutine(model)
        finally:
            await model.aclose()

    return asyncio.run(wrapper())


def stream(model: OpenAIModel, request: ModelRequest) -> list[ModelChunk]:
    async def go(m: OpenAIModel) -> list[ModelChunk]:
        return [chunk async for chunk in m.stream(request)]

    result: list[ModelChunk] = run(model, go)
    return result


def complete(model: OpenAIModel, request: ModelRequest) -> ModelResponse:
    async def go(m: OpenAIModel) -> ModelResponse:
        return await m.complete(request)

    result: ModelResponse = run(model, go)
    return result


def test_chat_streaming_yields_text_chunks_and_a_finish_reason(llama_server: str) -> None:
    model = OpenAIModel(base_url=llama_server, model="gemma", api_key="unused", temperature=0)
    request = ModelRequest([Message.user("Write the alphabet: A, B, C,")], max_tokens=8)
    chunks = stream(model, request)
    assert len(chunks) >= 1
    assert all(chunk.finish_reason is None for chunk in chunks[:-1])
    assert chunks[-1].finish_reason in ("stop", "length")


def test_chat_without_streaming_reports_usage(llama_server: str) -> None:
    model = OpenAIModel(base_url=llama_server, model="gemma", temperature=0)
    response = complete(model, ModelRequest([Message.user("Say hello.")], max_tokens=8))
    assert response.usage.input_tokens is not None and response.usage.input_tokens > 0
    assert response.usage.output_tokens is not None and response.usage.output_tokens <= 8
    assert response.finish_reason in ("stop", "length")


def test_stream_off_yields_the_whole_response_with_the_usage_the_stream_lacks(
    llama_server: str,
) -> None:
    # llama_cpp.server reports no usage while streaming; with stream: false it does
    def model(**options: Any) -> OpenAIModel:
        return OpenAIModel(
            base_url=llama_server, model="gemma", api="completions", temperature=0, **options
        )

    request = ModelRequest(COUNTING, max_tokens=6)
    streamed = stream(model(), request)
    whole = stream(model(stream=False), request)
    assert len(whole) == 1
    assert whole[0].text == "".join(chunk.text for chunk in streamed)
    assert whole[0].finish_reason == "length"
    assert whole[0].usage is not None and whole[0].usage.output_tokens == 6
    assert whole[0].usage.input_tokens is not None and whole[0].usage.input_tokens > 0


def test_completions_api_streams_the_continuation_of_the_prompt(llama_server: str) -> None:
    model = OpenAIModel(base_url=llama_server, model="gemma", api="completions", temperature=0)
    request = ModelRequest(COUNTING, max_tokens=10)
    chunks = stream(model, request)
    text = "".join(chunk.text for chunk in chunks)
    assert len([chunk for chunk in chunks if chunk.text]) > 1
    assert any(char.isdigit() for char in text)
    assert chunks[-1].finish_reason == "length"
    assert (
        complete(
            OpenAIModel(base_url=llama_server, model="gemma", api="completions", temperature=0),
            request,
        ).text
        == text
    )


def test_stop_sequences_are_honoured(llama_server: str) -> None:
    def model() -> OpenAIModel:
        return OpenAIModel(base_url=llama_server, model="gemma", api="completions", temperature=0)

    free = complete(model(), ModelRequest(COUNTING, max_tokens=12)).text
    assert ", 3" in free  # the model counts on; now stop it there
    stopped = complete(model(), ModelRequest(COUNTING, max_tokens=12, stop=[", 3"]))
    assert stopped.text == free[: free.index(", 3")]
    assert stopped.finish_reason == "stop"
    streamed = stream(model(), ModelRequest(COUNTING, max_tokens=12, stop=[", 3"]))
    assert "".join(chunk.text for chunk in streamed) == stopped.text


def test_max_tokens_bounds_the_output(llama_server: str) -> None:
    model = OpenAIModel(base_url=llama_server, model="gemma", api="completions", temperature=0)
    response = complete(model, ModelRequest(COUNTING, max_tokens=4))
    assert response.usage.output_tokens == 4
    assert response.finish_reason == "length"


def test_closing_the_stream_early_stops_generation_on_the_server(
    llama_server_process: LlamaServer,
) -> None:
    server = llama_server_process

    async def go(m: OpenAIModel) -> tuple[list[str], int, int]:
        texts: list[str] = []
        long_stream = m.stream(ModelRequest(COUNTING, max_tokens=1500))
        async for chunk in long_stream:
            texts.append(chunk.text)
            if len(texts) == 3:
                break
        # Looks at the server's threads' states, not its times: a generating server has a
        # thread running (or ready to run, on a busy machine) at nearly every look; a waiting
        # one at few (1 look in 5 or fewer, measured on a loaded machine), after the moment
        # it takes to notice the closed connection (13 looks there). (A new request would not
        # tell: llama_cpp.server interrupts a running generation for it.)
        generating = server.busy_samples(10)  # the stream is open: the 1,500 tokens go on
        await long_stream.aclose()  # type: ignore[attr-defined]
        return texts, generating, server.busy_samples(150)

    model = OpenAIModel(base_url=server.url, model="gemma", api="completions", temperature=0)
    texts, generating, after = run(model, go)
    assert len(texts) == 3
    assert generating >= 8, generating  # the looks see a generation
    assert after < 75, after  # busy at fewer than half the looks: it stopped


def test_any_model_name_is_accepted_by_llama_cpp_server(llama_server: str) -> None:
    # llama_cpp.server serves its one model whatever name is asked for (real behaviour, so
    # there is no unknown-model error to see here; the fake-server unit tests cover 404s).
    model = OpenAIModel(base_url=llama_server, model="no-such-model", temperature=0)
    response = complete(model, ModelRequest([Message.user("Hi")], max_tokens=2))
    assert response.finish_reason in ("stop", "length")


def test_server_down_is_a_clear_error(llama_server: str) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    model = OpenAIModel(base_url=url, max_retries=1, backoff=0.01)
    with pytest.raises(ModelError, match=f"cannot connect to {url}: connection refused"):
        complete(model, ModelRequest([Message.user("Hi")], max_tokens=2))


def test_grammar_option_constrains_llama_cpp_server_output(llama_server: str) -> None:
    from gent_core import TextTermination, tool
    from gent_core.grammar import GrammarMatcher, build_agent_grammar
    from gent_core.model import OutputStructure
    from gent_core.sections import TextSection
    from gent_core.testing import PluginSandbox

    @tool
    def calculator(expression: str) -> str:
        """Evaluate arithmetic."""
        return expression

    sandbox = PluginSandbox()
    sandbox.load_installed()
    registry = sandbox.registry()
    text_format = registry.create("format", "xml")
    chain = registry.create("toolchain", "json", tools=[calculator])
    answer = TextTermination()
    structure = OutputStructure(
        text_format, [TextSection("thinking"), chain, answer], chain, answer
    )
    model = OpenAIModel(
        base_url=llama_server, model="gemma", api="completions", temperature=0, grammar=True
    )
    request = ModelRequest(
        [Message.system(text_format.describe(list(structure.sections))), Message.user("2+2?")],
        max_tokens=200,
        structure=structure,
    )
    assert "grammar" in model.request_body(request, stream=True)
    response = complete(model, request)
    assert response.finish_reason == "stop"
    assert GrammarMatcher(build_agent_grammar(structure).text).matches(response.text)
    parsed = text_format.parse(response.text, structure.sections)
    names = [section.name for section in parsed]
    assert names in (["thinking", "action"], ["thinking", "answer"])

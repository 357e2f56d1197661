"""gent-llamacpp with the real Gemma 3 270M model, through each llama.cpp binding: loading,
streaming, stops, early close and grammar-constrained outputs that parse for every format x
chain combination."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gent_llamacpp.bundled_model import model_file
from gent_llamacpp.engine import BINDINGS, PROMPT_BATCH
from gent_llamacpp.model import MAX_CHUNKS_AHEAD, LlamaCppModel
from llamacpp_helpers import CHAINS, FORMATS, TOOLS, make_structure

from gent_core.messages import Message
from gent_core.model import ModelChunk, ModelRequest, ModelResponse

pytestmark = [pytest.mark.slow, pytest.mark.model]


@pytest.fixture(scope="module", params=list(BINDINGS))
def model(request: pytest.FixtureRequest) -> Iterator[LlamaCppModel]:
    instance = LlamaCppModel(seed=7, temperature=0.0, n_ctx=2048, binding=request.param)
    asyncio.run(instance.load())
    assert instance.binding == request.param
    yield instance
    asyncio.run(instance.aclose())


def complete(model: LlamaCppModel, request: ModelRequest) -> ModelResponse:
    return asyncio.run(model.complete(request))


def test_model_file_is_assembled_once_then_reused(tmp_path: Path) -> None:
    first = model_file(tmp_path)
    assert first.parent == tmp_path and first.stat().st_size > 200_000_000
    mtime = first.stat().st_mtime_ns
    assert model_file(tmp_path) == first
    assert first.stat().st_mtime_ns == mtime  # reused, not rewritten
    first.write_bytes(b"truncated")  # a damaged file is assembled again
    assert model_file(tmp_path).stat().st_size > 200_000_000
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp files left


def test_default_model_file_lives_in_the_xdg_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    path = model_file()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    assert path.parent == base / "gent" / "models"


def test_model_records_its_load_time(model: LlamaCppModel) -> None:
    # How fast it loads is measured by benchmarks/bench_llamacpp.py, not asserted here.
    assert model.load_seconds is not None
    assert model.load_seconds > 0


def test_streaming_yields_several_chunks_then_usage(model: LlamaCppModel) -> None:
    request = ModelRequest([Message.user("Name three colours.")], max_tokens=12)

    async def go() -> list[ModelChunk]:
        return [chunk async for chunk in model.stream(request)]

    chunks = asyncio.run(go())
    assert len([chunk for chunk in chunks if chunk.text]) >= 2
    last = chunks[-1]
    assert last.usage is not None and last.usage.input_tokens and last.usage.output_tokens
    assert last.usage.output_tokens <= 12
    assert last.finish_reason in ("stop", "length")


def test_stop_sequences_end_the_output_and_are_dropped(model: LlamaCppModel) -> None:
    structure = make_structure("xml", "json")
    messages = [Message.system("You are an agent."), Message.user("What is 2 + 2?")]
    free = complete(model, ModelRequest(messages, max_tokens=60, structure=structure))
    assert "</thinking>" in free.text  # the grammar makes the model close thinking
    stopped = complete(
        model, ModelRequest(messages, max_tokens=60, structure=structure, stop=["</thinking>"])
    )
    assert stopped.text == free.text[: free.text.index("</thinking>")]
    assert stopped.finish_reason == "stop"


def test_max_tokens_bounds_generation(model: LlamaCppModel) -> None:
    response = complete(model, ModelRequest([Message.user("Count to fifty.")], max_tokens=5))
    assert response.usage.output_tokens is not None and response.usage.output_tokens <= 5


def test_closing_the_stream_early_stops_generation(model: LlamaCppModel) -> None:
    """A reader that stops after 3 chunks, pausing first (the worker could run far ahead),
    costs at most MAX_CHUNKS_AHEAD more tokens, whatever the machine's speed: the worker waits
    for the reader, and stops when the stream closes."""
    request = ModelRequest(
        [Message.system("Counting: 1, 2, 3, 4, 5, 6,")], max_tokens=400, stop=["\nUser"]
    )

    async def go() -> int:
        stream = model.stream(request)
        count = 0
        async for _ in stream:
            count += 1
            if count == 3:
                break
        await asyncio.sleep(2)  # a slow reader: room to run ahead, if the worker could
        await stream.aclose()  # type: ignore[attr-defined]
        return count

    assert asyncio.run(go()) == 3
    stats = model.last_stats
    assert stats is not None
    # the 3 chunks read, the chunks queued, one being written, and a few the stop matcher may
    # hold back (text that could start "\nUser"): an operation count, not a clock
    assert stats.output_tokens <= 3 + MAX_CHUNKS_AHEAD + 4, stats.output_tokens
    # the worker released the model when aclose() returned: the lock is free now
    assert model._generate_lock.acquire(blocking=False)
    model._generate_lock.release()


@pytest.mark.parametrize(("fmt", "chain"), list(itertools.product(FORMATS, CHAINS)))
def test_constrained_outputs_parse_for_every_combination(
    model: LlamaCppModel, fmt: str, chain: str
) -> None:
    structure = make_structure(fmt, chain)
    assert structure.toolchain is not None
    system = "You are a helpful agent.\n" + structure.format.describe(list(structure.sections))
    tools = {tool.name: tool for tool in TOOLS}
    for task in ["What is 17 * 23?", "Search the web for the capital of France."]:
        request = ModelRequest(
            [Message.system(system), Message.user(task)], max_tokens=160, structure=structure
        )
        response = complete(model, request)
        assert response.finish_reason == "stop", response.text  # the grammar's end was reached
        parsed = structure.format.parse(response.text, structure.sections)
        names = [section.name for section in parsed]
        assert names in (["thinking", "action"], ["thinking", "answer"]), response.text
        if names[1] == "action":
            for call in structure.toolchain.parse(parsed.sections[1].content):
                tools[call.tool].validate_arguments(call.args)


def test_a_grammar_that_fails_the_check_falls_back_to_free_generation(
    model: LlamaCppModel, caplog: pytest.LogCaptureFixture
) -> None:
    structure = make_structure("xml", "json")
    base = type(structure.format)

    class BrokenGrammarFormat(base):  # type: ignore[valid-type, misc]
        def grammar_text(self, builder: Any) -> str | None:
            return '"unterminated'

    broken = replace(structure, format=BrokenGrammarFormat())
    request = ModelRequest([Message.user("Hi")], max_tokens=8, structure=broken)
    with caplog.at_level(logging.WARNING, logger="gent.llamacpp"):
        response = complete(model, request)
    assert "generating unconstrained" in caplog.text
    assert model.last_stats is not None and model.last_stats.grammar is False
    assert response.usage.output_tokens


def test_grammar_constrained_generation_reports_its_stats(model: LlamaCppModel) -> None:
    structure = make_structure("markdown", "json")
    complete(
        model, ModelRequest([Message.user("What is 2 + 2?")], max_tokens=40, structure=structure)
    )
    stats = model.last_stats
    assert stats is not None and stats.grammar is True
    assert stats.output_tokens > 0 and stats.tokens_per_second > 0


def test_a_grammar_llama_cpp_rejects_falls_back_to_free_generation(
    model: LlamaCppModel, caplog: pytest.LogCaptureFixture
) -> None:
    # gent's checker never lets such a grammar through; this is the second line of defence
    # (llama.cpp's own parser, per binding), reached here by a model that skips the first.
    class UncheckedModel(LlamaCppModel):
        def grammar(self, structure: Any) -> str | None:
            return 'root ::= "unterminated'

    unchecked = UncheckedModel()
    unchecked._engine, unchecked._path = model._engine, model._path  # share the loaded model
    request = ModelRequest(
        [Message.user("Hi")], max_tokens=8, structure=make_structure("xml", "json")
    )
    with caplog.at_level(logging.WARNING, logger="gent.llamacpp"):
        response = complete(unchecked, request)
    assert "generating unconstrained" in caplog.text
    assert unchecked.last_stats is not None and unchecked.last_stats.grammar is False
    assert response.usage.output_tokens and response.text


LONG_TASK = "Summarise these notes. " + " ".join(
    f"Note {number}: the {colour} box weighs {number * 7 % 13} kilograms."
    for number, colour in zip(range(120), itertools.cycle(["red", "blue", "green"]))
)


class CountedPolls:
    """Counts how often the engine polls its cancellation flag (between prompt batches and
    tokens; llama-cpp-python also between the operations of a batch), and cancels a task
    at a chosen poll: a measure of the work done, the same on any machine at any load."""

    def __init__(self, model: LlamaCppModel, monkeypatch: pytest.MonkeyPatch) -> None:
        engine = model._engine
        assert engine is not None, "load the model first"
        self.polls: list[bool] = []
        self.cancel_at: tuple[int, asyncio.AbstractEventLoop, asyncio.Task[None]] | None = None
        generate = engine.generate

        def counted(prompt: str, *, cancelled: Callable[[], bool], **options: Any) -> Any:
            return generate(prompt, cancelled=lambda: self._poll(cancelled), **options)

        monkeypatch.setattr(engine, "generate", counted)

    def _poll(self, cancelled: Callable[[], bool]) -> bool:
        if self.cancel_at is not None and len(self.polls) == self.cancel_at[0]:
            _, loop, task = self.cancel_at
            loop.call_soon_threadsafe(task.cancel)
            deadline = time.monotonic() + 60  # a hang guard: the flag is set at once
            while not cancelled():
                assert time.monotonic() < deadline, "cancelling the task never set the flag"
                time.sleep(0.001)
        value = cancelled()
        self.polls.append(value)
        return value


def test_cancelling_stops_a_long_prompt_between_batches(
    model: LlamaCppModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cancelling the task stops prompt evaluation in progress: cancelled a third of the way
    through a long prompt, the engine does a small part of a whole evaluation's work after it
    (counted as polls of the cancellation flag: one per batch at least)."""

    def request(prefix: str) -> ModelRequest:
        return ModelRequest([Message.user(f"{prefix} {LONG_TASK}")], max_tokens=1)

    complete(model, ModelRequest([Message.user("Hi.")], max_tokens=1))  # loaded
    counter = CountedPolls(model, monkeypatch)
    complete(model, request("First."))  # a whole prompt evaluation (nothing cached)
    whole = len(counter.polls)
    assert model.last_stats is not None and model.last_stats.prompt_tokens > 1000
    assert whole >= model.last_stats.prompt_tokens // PROMPT_BATCH, whole  # a poll a batch

    async def cancel_a_third_of_the_way() -> None:
        async def consume() -> None:
            async for _ in model.stream(request("Second.")):  # a new prompt: no cache reuse
                pass

        task = asyncio.create_task(consume())
        counter.polls.clear()
        counter.cancel_at = (whole // 3, asyncio.get_running_loop(), task)
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_a_third_of_the_way())
    assert model.last_stats is not None and model.last_stats.finish == "cancelled"
    assert counter.polls[whole // 3] is True  # the first poll after the cancellation
    after = len(counter.polls) - whole // 3
    assert after < whole / 4, (after, whole)
    # the model is usable again at once, and the cancelled prompt left nothing behind
    response = complete(model, ModelRequest([Message.user("Say hi.")], max_tokens=3))
    assert response.usage.output_tokens


def test_model_file_from_the_package_is_the_function() -> None:
    # the function was shadowed by its own module once that module was imported
    import gent_llamacpp
    import gent_llamacpp.bundled_model

    assert gent_llamacpp.model_file is gent_llamacpp.bundled_model.model_file
    assert callable(gent_llamacpp.model_file)

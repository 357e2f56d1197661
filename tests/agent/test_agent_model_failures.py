"""Nothing a model back end raises escapes ``Agent.run``: any error of a model call (gent's
own errors included, not only ``ModelError``) ends the run with the stop reason
``model_error`` and a message naming what failed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from gent_xml.format import XMLFormat

from gent_core import Agent, ConfigError, GentError, Model, ModelChunk, ModelRequest
from gent_core.errors import InputError, ModelError


class FailingModel(Model):
    """Streams ``before`` and then raises ``error``."""

    def __init__(self, error: Exception, before: str = "") -> None:
        self.error = error
        self.before = before

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        del request
        if self.before:
            yield ModelChunk(self.before)
        raise self.error


class RaisingAtCallModel(Model):
    """A back end whose ``stream`` raises when called, before any iterator exists."""

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        del request
        raise InputError("the prompt file is unreadable", hint="Check the file.")


class FailingCloseModel(Model):
    """Answers, but its stream's ``aclose`` fails."""

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        del request
        return _ClosingFails()


class _ClosingFails:
    def __init__(self) -> None:
        self.sent = False

    def __aiter__(self) -> _ClosingFails:
        return self

    async def __anext__(self) -> ModelChunk:
        if self.sent:
            raise StopAsyncIteration
        self.sent = True
        return ModelChunk("<answer>ok</answer>", finish_reason="stop")

    async def aclose(self) -> None:
        raise OSError("connection reset while closing")


def _run(model: Model, tmp_path: Path) -> tuple[str, str]:
    result = Agent(model, XMLFormat(), working_directory=tmp_path).run_sync("hello")
    return result.stop_reason, result.message


def test_a_gent_error_that_is_not_a_model_error_ends_the_run(tmp_path: Path) -> None:
    error = ConfigError("api_key is not set", hint="Set OPENAI_API_KEY.")
    reason, message = _run(FailingModel(error), tmp_path)
    assert reason == "model_error"
    assert message.startswith("the model failed: api_key is not set")
    assert "Set OPENAI_API_KEY." in message


def test_a_gent_error_after_some_output_ends_the_run_too(tmp_path: Path) -> None:
    reason, message = _run(FailingModel(GentError("lost the server"), "<thinking>hm"), tmp_path)
    assert (reason, message) == ("model_error", "the model failed: lost the server")


def test_a_stream_that_raises_when_called_ends_the_run(tmp_path: Path) -> None:
    reason, message = _run(RaisingAtCallModel(), tmp_path)
    assert reason == "model_error"
    assert "the prompt file is unreadable" in message


def test_a_stream_whose_closing_fails_ends_the_run(tmp_path: Path) -> None:
    reason, message = _run(FailingCloseModel(), tmp_path)
    assert reason == "model_error"
    assert message == "the model failed: OSError: connection reset while closing"


class FailingLoadModel(Model):
    """A back end whose ``load`` fails with an exception that is not gent's own."""

    async def load(self) -> None:
        raise RuntimeError("llama_model_load: corrupt tensor data")

    def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        raise AssertionError("never called: the model did not load")


def test_a_model_that_fails_to_load_raises_a_model_error_naming_it(tmp_path: Path) -> None:
    """Loading happens before the run exists, so it raises (like a missing model file), but
    always as gent's error, which the command line reports without a traceback."""
    with pytest.raises(ModelError) as caught:
        _run(FailingLoadModel(), tmp_path)
    assert str(caught.value.message) == (
        "the model FailingLoadModel failed to load: "
        "RuntimeError: llama_model_load: corrupt tensor data"
    )
    assert isinstance(caught.value.__cause__, RuntimeError)

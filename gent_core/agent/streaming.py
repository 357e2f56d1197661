"""One model call: stream the output through the format's incremental parser and stop as
soon as the action or answer section has closed, so the model never writes its own
observation.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from gent_core.agent.events import AgentEvent, OutputEvent
from gent_core.errors import GentError, ModelError
from gent_core.formats import TextFormat
from gent_core.model import Model, ModelRequest, Usage
from gent_core.sections import Section, SectionEnded

__all__ = ["ModelOutput", "stream_model_output"]


@dataclass(frozen=True)
class ModelOutput:
    """What one model call produced.

    Attributes:
        text: The output, cut right after the first closed action/answer section.
        usage: Token counts, when the back end reported them.
        finish_reason: The back end's finish reason (``"stop"``, ``"length"``...), or
            ``"section_closed"`` when the agent stopped the stream itself.
        seconds: Wall time of the call.
    """

    text: str
    usage: Usage
    finish_reason: str | None
    seconds: float


async def stream_model_output(
    model: Model,
    request: ModelRequest,
    text_format: TextFormat,
    sections: Sequence[Section],
    closing: Collection[str],
    emit: Callable[[AgentEvent], None],
    step: int,
    timeout: float | None,
) -> ModelOutput:
    """Call ``model`` and stream its output through ``text_format``'s incremental parser.

    Args:
        model: The back end.
        request: The request.
        text_format: The format whose parser reads the stream.
        sections: The registered sections.
        closing: Section names whose completion ends generation (action, answer).
        emit: Receives an :class:`OutputEvent` per section event.
        step: The step number, for the events.
        timeout: Seconds the whole call may take, or ``None``.

    Raises:
        ModelError: When the back end fails or the call times out.
    """
    parser = text_format.incremental_parser(sections)
    pieces: list[str] = []
    usage = Usage()
    finish_reason: str | None = None
    cut_at: int | None = None
    started = time.perf_counter()
    stream = model.stream(request)

    async def consume() -> None:
        nonlocal usage, finish_reason, cut_at
        async for chunk in stream:
            usage = chunk.usage or usage
            finish_reason = chunk.finish_reason or finish_reason
            if not chunk.text:
                continue
            pieces.append(chunk.text)
            # A chunk is handled whole: when one chunk closes both an answer and an action,
            # both stay in the output (and the action wins, as the loop's rules say).
            for event in parser.feed(chunk.text):
                emit(OutputEvent(step, event))
                if isinstance(event, SectionEnded) and event.complete and event.name in closing:
                    cut_at = max(cut_at or 0, event.section.end)
            if cut_at is not None:
                return

    try:
        if timeout is None:
            await consume()
        else:
            await asyncio.wait_for(consume(), timeout)
    except asyncio.TimeoutError as error:
        raise ModelError(f"the model did not finish within {timeout:g} s") from error
    except GentError:
        raise
    except Exception as error:
        raise ModelError(f"the model failed: {type(error).__name__}: {error}") from error
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await aclose()
    text = "".join(pieces)
    if cut_at is not None:
        text = text[:cut_at]
        finish_reason = "section_closed"
    else:
        for event in parser.close():
            emit(OutputEvent(step, event))
    return ModelOutput(text, usage, finish_reason, time.perf_counter() - started)

"""The ``template`` model back end: a parrot that answers with the user's last message.

It shows what a back end does: stream chunks for a request, stop at the request's stop
sequences, report token usage on the last chunk, and write its answer in the agent's own text
format (``request.structure``). Replace it with your back end (an HTTP API, a local runtime):
import heavy libraries in :meth:`TemplateModel.load`, not at module level.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping

from gent_core import hookimpl
from gent_core.model import Model, ModelChunk, ModelRequest, Usage

__all__ = ["TemplateModel", "gent_register_models"]


class TemplateModel(Model):
    """Answers every request with the text of its last user message.

    Args:
        prefix: Written before the repeated message.
        chunk_size: Characters per streamed chunk.
    """

    def __init__(self, *, prefix: str = "You said: ", chunk_size: int = 8) -> None:
        if chunk_size < 1:
            raise ValueError(f"chunk_size must be at least 1, got {chunk_size}")
        self.prefix = prefix
        self.chunk_size = chunk_size

    def _reply(self, request: ModelRequest) -> str:
        said = next(
            (message.text for message in reversed(request.messages) if message.role == "user"),
            "",
        )
        answer = f"{self.prefix}{said}"
        structure = request.structure
        if structure is None or structure.termination is None:
            return answer
        termination = structure.termination
        return structure.format.format_section(termination.name, termination.example_answer(answer))

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        """Stream the reply, cut at the first stop sequence (which is dropped)."""
        text = self._reply(request)
        cuts = [index for stop in request.stop if (index := text.find(stop)) >= 0]
        if cuts:
            text = text[: min(cuts)]
        for start in range(0, len(text), self.chunk_size):
            yield ModelChunk(text[start : start + self.chunk_size])
        prompt_words = sum(len(message.text.split()) for message in request.messages)
        yield ModelChunk("", usage=Usage(prompt_words, len(text.split())), finish_reason="stop")

    def describe(self) -> str:
        """``template (parrot)``."""
        return "template (parrot)"


@hookimpl
def gent_register_models() -> Mapping[str, Callable[..., Model]]:
    """Supply the ``template`` model."""
    return {"template": TemplateModel}

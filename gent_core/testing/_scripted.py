"""A model that replays scripted outputs: for tests of agents, tools and middleware."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable

from gent_core.errors import ModelError
from gent_core.messages import Message
from gent_core.model import Model, ModelChunk, ModelIdentity, ModelRequest, Usage

__all__ = ["ScriptedModel"]


class ScriptedModel(Model):
    """Replays ``outputs`` in order, one per call, streamed in chunks.

    It behaves like a real back end where that matters to an agent: generation stops at the
    first stop sequence (which is dropped), and usage is reported on the last chunk (one
    "token" per whitespace-separated word).

    Args:
        outputs: The texts to return, one per call; an entry may be ``(text, finish_reason)``
            to simulate, e.g., an output cut off by the token limit (``"length"``).
        chunk_size: Characters per streamed chunk (``0`` streams each output whole).
        supports_images: Whether the model claims to accept images.

    Attributes:
        requests: Every request received, in order (for assertions).
    """

    def __init__(
        self,
        outputs: Iterable[str | tuple[str, str]],
        *,
        chunk_size: int = 7,
        supports_images: bool = False,
    ) -> None:
        self._outputs = [(o, "stop") if isinstance(o, str) else o for o in outputs]
        self._word_counts: dict[int, tuple[Message, int]] = {}
        self._chunk_size = chunk_size
        self.supports_images = supports_images
        self.requests: list[ModelRequest] = []

    @property
    def remaining(self) -> int:
        """How many scripted outputs are left."""
        return len(self._outputs)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        """Stream the next scripted output, cut at the first stop sequence."""
        self.requests.append(request)
        if not self._outputs:
            raise ModelError(
                f"scripted model has no output left for call {len(self.requests)}",
                hint="Give the ScriptedModel one output per expected model call.",
            )
        text, finish_reason = self._outputs.pop(0)
        cut = min((index for stop in request.stop if (index := text.find(stop)) >= 0), default=-1)
        if cut >= 0:
            text = text[:cut]
        size = self._chunk_size or max(len(text), 1)
        for start in range(0, len(text), size):
            yield ModelChunk(text[start : start + size])
        prompt_words = sum(self._words(message) for message in request.messages)
        yield ModelChunk(
            "", usage=Usage(prompt_words, len(text.split())), finish_reason=finish_reason
        )

    def _words(self, message: Message) -> int:
        """Word count of ``message``, memoised (a run resends its whole history each call)."""
        known = self._word_counts.get(id(message))
        if known is None or known[0] is not message:
            known = (message, len(message.text.split()))
            self._word_counts[id(message)] = known
        return known[1]

    def identity(self) -> ModelIdentity:
        """Provider and model ``scripted``, operation ``chat``."""
        return ModelIdentity(provider="scripted", name="scripted", operation="chat")

    def describe(self) -> str:
        """``"scripted (N outputs left)"``."""
        return f"scripted ({self.remaining} outputs left)"

    def __repr__(self) -> str:
        return f"ScriptedModel({[text for text, _ in self._outputs]!r})"

"""The :class:`Model` contract: something that streams text for a list of messages."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from gent_core.messages import Message

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.sections import Section
    from gent_core.termination import Termination
    from gent_core.toolchain import ToolChain

__all__ = [
    "Model",
    "ModelChunk",
    "ModelIdentity",
    "ModelRequest",
    "ModelResponse",
    "OutputStructure",
    "Usage",
]


@dataclass(frozen=True)
class Usage:
    """Token counts of one model call (``None`` when the back end does not report them)."""

    input_tokens: int | None = None
    output_tokens: int | None = None


@dataclass(frozen=True)
class ModelChunk:
    """One piece of a streamed response.

    Attributes:
        text: Newly generated text (may be empty).
        usage: Token counts, usually on the last chunk only.
        finish_reason: Why generation ended (``"stop"``, ``"length"``...), on the last chunk.
    """

    text: str = ""
    usage: Usage | None = None
    finish_reason: str | None = None


@dataclass(frozen=True)
class OutputStructure:
    """What the agent expects the model to write, for back ends that constrain or prompt
    by structure (a grammar, a few-shot prompt for a base model).

    Attributes:
        format: The text format.
        sections: Every registered section, in prompt order.
        toolchain: The tool chain, if any.
        termination: The termination, if any.
        max_calls: Most tool calls one action may hold (the agent's
            ``limits.max_calls_per_action``); ``None``: the grammar's default
            (:data:`gent_core._grammar.MAX_CALLS`).
    """

    format: TextFormat
    sections: Sequence[Section]
    toolchain: ToolChain | None = None
    termination: Termination | None = None
    max_calls: int | None = None


@dataclass
class ModelRequest:
    """One model call.

    Attributes:
        messages: The conversation so far, system message first.
        stop: Stop sequences; the back end drops the one that matched.
        max_tokens: Upper bound on generated tokens, or ``None`` for the back end's default.
        temperature: Sampling temperature, or ``None`` for the back end's default.
        structure: The expected output structure, for back ends that use it.
    """

    messages: list[Message]
    stop: list[str] = field(default_factory=list)
    max_tokens: int | None = None
    temperature: float | None = None
    structure: OutputStructure | None = None


@dataclass(frozen=True)
class ModelResponse:
    """A complete response: the text and its usage."""

    text: str
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None


@dataclass(frozen=True)
class ModelIdentity:
    """What a back end says about itself to telemetry and logs (:meth:`Model.identity`).

    Attributes:
        provider: Who serves the model, as the back end knows it (``"openai"`` for any
            OpenAI-compatible server, ``"llamacpp"``).
        name: The model's name as requested (``"gpt-4o-mini"``, a model file's name), or
            ``None`` when the back end cannot say.
        operation: ``"chat"`` when the back end sends the conversation as messages,
            ``"text_completion"`` when it sends one rendered prompt (a base model).
    """

    provider: str
    name: str | None = None
    operation: Literal["chat", "text_completion"] = "chat"


class Model(ABC):
    """A language model back end.

    Attributes:
        supports_images: Whether image parts in messages reach the model.
    """

    supports_images: bool = False

    @abstractmethod
    def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        """Generate text for ``request``, chunk by chunk.

        Closing the iterator early (``aclose()``) must stop generation.

        Raises:
            ModelError: On connection, authentication or model-name failures.
        """

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Generate the whole response (by default, by draining :meth:`stream`)."""
        texts: list[str] = []
        usage = Usage()
        finish_reason: str | None = None
        async for chunk in self.stream(request):
            texts.append(chunk.text)
            usage = chunk.usage or usage
            finish_reason = chunk.finish_reason or finish_reason
        return ModelResponse("".join(texts), usage, finish_reason)

    async def load(self) -> None:  # noqa: B027 - optional hook, a no-op by default
        """Prepare the model (download, load weights). Called once before the first call."""

    async def aclose(self) -> None:  # noqa: B027 - optional hook, a no-op by default
        """Release resources (connections, weights)."""

    def describe(self) -> str:
        """A short description for logs and the CLI (``"openai gpt-4o-mini"``)."""
        return type(self).__name__

    def identity(self) -> ModelIdentity:
        """Who serves the model and which model it is, for telemetry (``gen_ai.*`` span
        attributes) and logs. By default the back end's class name, no model name, ``chat``.
        """
        return ModelIdentity(provider=type(self).__name__)

    def render_request(self, request: ModelRequest) -> str | None:
        """The exact text this back end sends for ``request``, or ``None`` when it cannot say
        (the default).

        A base-model back end returns the raw prompt (few-shot examples included); a chat
        back end the messages it sends, as JSON. ``gent describe CONFIG --prompt TASK`` prints
        it, so a user sees precisely what the model reads.
        """
        del request
        return None

    def grammar(self, structure: OutputStructure) -> str | None:
        """The grammar (GBNF) this back end constrains generation with for ``structure``, or
        ``None`` when it does not constrain generation (the default). ``gent describe`` shows it.
        """
        del structure
        return None

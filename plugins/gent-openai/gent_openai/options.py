"""The options of the ``openai`` model, validated with pydantic; secrets never shown."""

from __future__ import annotations

import os
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

__all__ = [
    "DEFAULT_BASE_URL",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "DEFAULT_THINKING_BUDGET",
    "OpenAIOptions",
    "ServerKind",
    "parse_options",
]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
DEFAULT_MODEL = "gpt-4o-mini"

DEFAULT_MAX_TOKENS = 1024
"""The output budget of every model call (``max_tokens``) when neither the agent nor the
options set one: without it a small model can write until the server's context ends (more than
6,000 tokens on one task was seen). ``max_tokens: null`` sends none."""

DEFAULT_THINKING_BUDGET = 300
"""Characters of thinking before the action with ``thinking_budget: auto`` on a server that
continues a final assistant message (llama.cpp's, vLLM's). Without one, SmolLM2-135M-Instruct
behind llama.cpp's server wrote its thinking until the token limit on 4 of 16 BFCL tasks, even
with the grammar (which leaves thinking free): outputs the agent cannot use."""

ServerKind = Literal["llamacpp", "vllm", "sglang", "openai"]
"""What serves the API, as far as a request's extra fields go: llama.cpp's server (``grammar``),
vLLM (``structured_outputs.grammar``), SGLang (``ebnf``), or any other (no grammar field)."""


class OpenAIOptions(BaseModel):
    """Options of :class:`~gent_openai.model.OpenAIModel`.

    Attributes:
        base_url: The API root (``.../v1``); default ``$OPENAI_BASE_URL`` or OpenAI's.
        api_key: The bearer token; default ``$OPENAI_API_KEY`` (none for local servers).
        model: The model name; default ``$OPENAI_MODEL`` or ``gpt-4o-mini``.
        api: ``"chat"`` (chat completions) or ``"completions"`` (plain completions, for base
            models: the messages are rendered into one prompt).
        supports_images: Whether images in messages are sent (as ``image_url`` data URLs).
        temperature: Sampling temperature used when a request sets none.
        max_tokens: The output budget of a call when the request sets none
            (:data:`DEFAULT_MAX_TOKENS`); ``None`` sends no ``max_tokens`` (the server's own
            default: with the completions API often 16 tokens, with the chat API often none).
        timeout: Seconds to wait for the server between two pieces of the response.
        max_line_chars: Longest line of the event stream, in characters (and, with ``stream``
            off, the longest response). A server sending a longer one fails the call with a
            :class:`~gent_core.errors.ModelError` instead of filling the memory.
        connect_timeout: Seconds to wait for a connection.
        max_retries: Retries after a 429, a 5xx, a timeout or a connection error (only before
            the first chunk arrived).
        backoff: First retry delay in seconds; doubled each retry, with jitter.
        max_backoff: Longest retry delay in seconds (also caps ``Retry-After``).
        stream: Stream responses as server-sent events. Off, each request waits for the
            whole response (one chunk): for proxies that cannot stream, and for servers that
            report token usage only then (llama-cpp-python's server).
        stream_usage: Ask for token usage in the stream (``stream_options``).
        grammar: Send the agent's GBNF grammar: ``"auto"`` when the server is known to take
            one (see ``server``), ``True`` always (in the field of the server's kind; the
            ``grammar`` field when the kind is unknown), ``False`` never.
        server: What serves the API: ``"auto"`` asks ``GET /models`` once (its ``owned_by``:
            ``llamacpp``, ``vllm``, ``sglang``), else ``"llamacpp"``, ``"vllm"``, ``"sglang"``
            or ``"openai"`` (any other: no grammar field).
        few_shot: Show worked examples in the agent's own format: with ``api: completions``,
            at the top of the prompt (what base models need); with ``api: chat``, as earlier
            user and assistant turns after the system message.
        thinking_budget: Characters the free sections (``thinking``) may take before the
            action or answer. Past it the output is cut and continued after the thinking is
            closed (a continuation request, for servers that continue a final assistant
            message: llama.cpp's, vLLM's). ``"auto"`` (the default):
            :data:`DEFAULT_THINKING_BUDGET` on a server of such a kind (see ``server``),
            none on any other; ``None``: no budget.
        headers: Extra HTTP headers.
        extra_body: Extra fields merged into every request body.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str = Field(
        default_factory=lambda: os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
    )
    api_key: SecretStr | None = Field(
        default_factory=lambda: (
            SecretStr(key) if (key := os.environ.get("OPENAI_API_KEY")) else None
        )
    )
    model: str = Field(default_factory=lambda: os.environ.get("OPENAI_MODEL") or DEFAULT_MODEL)
    api: Literal["chat", "completions"] = "chat"
    supports_images: bool = False
    temperature: float | None = Field(None, ge=0.0, le=2.0)
    max_tokens: int | None = Field(DEFAULT_MAX_TOKENS, ge=1)
    timeout: float = Field(60.0, gt=0)
    max_line_chars: int = Field(1_000_000, ge=1)
    connect_timeout: float = Field(10.0, gt=0)
    max_retries: int = Field(3, ge=0, le=10)
    backoff: float = Field(0.5, ge=0)
    max_backoff: float = Field(8.0, ge=0)
    stream: bool = True
    stream_usage: bool = True
    grammar: bool | Literal["auto"] = "auto"
    server: Literal["auto", "llamacpp", "vllm", "sglang", "openai"] = "auto"
    few_shot: bool = True
    thinking_budget: Annotated[int, Field(ge=1)] | Literal["auto"] | None = "auto"
    headers: dict[str, str] = Field(default_factory=dict)
    extra_body: dict[str, Any] = Field(default_factory=dict)

    @property
    def root(self) -> str:
        """``base_url`` without a trailing slash."""
        return self.base_url.rstrip("/")

    def secret(self) -> str | None:
        """The API key in clear (only for the Authorization header)."""
        return self.api_key.get_secret_value() if self.api_key is not None else None


def parse_options(options: dict[str, Any]) -> OpenAIOptions:
    """Validate ``options`` (missing ones come from the environment).

    Raises:
        ConfigError: Naming every invalid or unknown option and what is accepted; the
            values given are never quoted (one may be the API key).
    """
    from gent_core.config import parse_options_model

    return parse_options_model(OpenAIOptions, options, plugin="openai")

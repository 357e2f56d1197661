"""The ``openai`` model: any OpenAI-compatible server (chat or plain completions), streamed.

Every call has an output budget (``max_tokens``, :data:`~gent_openai.options.DEFAULT_MAX_TOKENS`
unless set); an output the server cut there ends with finish reason ``length``, which the agent
reports as cut off and never uses. With an agent's structure, the chat API gets worked examples
as earlier turns (:func:`~gent_prompt.render_chat`), the completions API the base-model
prompt; the agent's grammar goes to servers known to take one
(:mod:`gent_openai.server_kind`), and a thinking budget (:mod:`gent_openai.thinking`) stops a
long thinking section and continues the output with the action.

Failures before the first chunk (429, 5xx, timeouts, connection errors) are retried with
exponential backoff and jitter, a bounded number of times; after the first chunk nothing is
retried (the text already went to the caller). Every error is a
:class:`~gent_core.errors.ModelError` saying what to fix, and the API key never appears in a
repr, a log line or an error message.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing, asynccontextmanager
from typing import TYPE_CHECKING, Any

from gent_core.errors import Location, ModelError
from gent_core.model import (
    Model,
    ModelChunk,
    ModelIdentity,
    ModelRequest,
    ModelResponse,
    OutputStructure,
    Usage,
)
from gent_openai.errors import (
    RETRY_STATUSES,
    is_model_error,
    redact,
    server_message,
    status_error,
)
from gent_openai.options import (
    DEFAULT_THINKING_BUDGET,
    OpenAIOptions,
    ServerKind,
    parse_options,
)
from gent_openai.server_kind import GRAMMAR_FIELDS, grammar_fields
from gent_openai.sse import DONE, sse_data

if TYPE_CHECKING:
    import httpx

__all__ = ["OpenAIModel"]

logger = logging.getLogger("gent.openai")
_LOCATION = Location(plugin="openai")

CONTINUING_KINDS: frozenset[ServerKind] = frozenset({"llamacpp", "vllm"})
"""The server kinds that continue a final assistant message (what a thinking budget's
continuation needs): llama.cpp's by default, vLLM's when asked (``continue_final_message``)."""


class _Retry(Exception):
    """A failure that may be retried (raised before any chunk was received)."""

    def __init__(self, error: ModelError, retry_after: float | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.retry_after = retry_after


def _usage(data: Any) -> Usage | None:
    if not isinstance(data, dict):
        return None
    prompt, completion = data.get("prompt_tokens"), data.get("completion_tokens")
    return Usage(
        prompt if isinstance(prompt, int) else None,
        completion if isinstance(completion, int) else None,
    )


def _connect_reason(error: BaseException, secret: str | None) -> str:
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused"
        cause = cause.__cause__ or cause.__context__
    return redact(str(error) or type(error).__name__, secret)


_ERROR_BODY_CHARS = 65_536
"""Characters of an error response read (its message is shown cut to 500 anyway)."""


async def _read_text(response: httpx.Response, limit: int) -> str | None:
    """The body of ``response`` as text, or ``None`` when it is longer than ``limit``
    characters (nothing past the limit is read).
    """
    pieces: list[str] = []
    size = 0
    async for piece in response.aiter_text():
        size += len(piece)
        if size > limit:
            return None
        pieces.append(piece)
    return "".join(pieces)


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return max(float(value), 0.0) if value is not None else None
    except ValueError:
        return None


class OpenAIModel(Model):
    """A model behind an OpenAI-compatible HTTP API (OpenAI, llama.cpp, vLLM, Ollama...).

    Args:
        **options: See :class:`~gent_openai.options.OpenAIOptions` (``base_url``,
            ``api_key``, ``model``, ``api``, ``supports_images``, retries, timeouts...).
            ``base_url``, ``api_key`` and ``model`` default to ``$OPENAI_BASE_URL``,
            ``$OPENAI_API_KEY`` and ``$OPENAI_MODEL``.

    Raises:
        ConfigError: For an unknown or invalid option.
    """

    def __init__(self, **options: Any) -> None:
        self.options: OpenAIOptions = parse_options(options)
        self.supports_images = self.options.supports_images
        self._client: httpx.AsyncClient | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        server = self.options.server
        self._kind: ServerKind | None = None if server == "auto" else server

    # ----------------------------------------------------------------- lifecycle

    def _get_client(self) -> httpx.AsyncClient:
        import httpx

        loop = asyncio.get_running_loop()
        if self._client is None or self._client.is_closed or self._client_loop is not loop:
            headers = {"Content-Type": "application/json", **self.options.headers}
            key = self.options.secret()
            if key:
                headers["Authorization"] = f"Bearer {key}"
            timeout = httpx.Timeout(self.options.timeout, connect=self.options.connect_timeout)
            self._client = httpx.AsyncClient(
                base_url=self.options.root + "/", headers=headers, timeout=timeout
            )
            self._client_loop = loop
        return self._client

    async def load(self) -> None:
        """Create the HTTP client (no request is sent)."""
        self._get_client()

    async def aclose(self) -> None:
        """Close the HTTP client and its connections."""
        client, self._client = self._client, None
        if client is not None and self._client_loop is asyncio.get_running_loop():
            await client.aclose()

    def identity(self) -> ModelIdentity:
        """Provider ``openai``, the requested model, ``chat`` or (``api: completions``)
        ``text_completion``.
        """
        if self.options.api == "completions":
            return ModelIdentity("openai", self.options.model, "text_completion")
        return ModelIdentity("openai", self.options.model, "chat")

    def describe(self) -> str:
        """``"openai <model> at <base URL>"``, then how the agent's grammar is sent:
        ``"(grammar: the server's 'grammar' field)"``, ``"(grammar: off)"``, ``"(grammar: off,
        the server takes none)"`` or ``"(grammar: auto, server not asked yet)"``.
        """
        return f"openai {self.options.model} at {self.options.root} ({self.grammar_use()})"

    def grammar_use(self) -> str:
        """How the agent's grammar is sent, in words (see :meth:`describe`)."""
        setting, kind = self.options.grammar, self._kind
        if setting is False:
            return "grammar: off"
        if setting == "auto" and kind is None:
            return "grammar: auto, server not asked yet"
        if setting == "auto" and kind not in GRAMMAR_FIELDS:
            return "grammar: off, the server takes none"
        field = GRAMMAR_FIELDS.get(kind or "llamacpp", "grammar")
        return f"grammar: the server's {field!r} field"

    def sends_grammar(self) -> bool:
        """Whether the agent's grammar goes with each request (``grammar: true``, or ``auto``
        and a server kind known to take one).
        """
        setting = self.options.grammar
        return setting is True or (setting == "auto" and self._kind in GRAMMAR_FIELDS)

    def thinking_budget(self) -> int | None:
        """The thinking budget in characters (the ``thinking_budget`` option; ``"auto"``:
        :data:`~gent_openai.options.DEFAULT_THINKING_BUDGET` on a server kind in
        :data:`CONTINUING_KINDS`), or ``None``: no budget.
        """
        budget = self.options.thinking_budget
        if budget != "auto":
            return budget
        return DEFAULT_THINKING_BUDGET if self._kind in CONTINUING_KINDS else None

    def _needs_kind(self, request: ModelRequest) -> bool:
        """Whether ``request`` depends on the server's kind (its grammar field, or whether
        it continues an output past the thinking budget).
        """
        o = self.options
        return request.structure is not None and (
            o.grammar is not False or o.thinking_budget == "auto"
        )

    async def server_kind(self) -> ServerKind | None:
        """The server's kind (the ``server`` option, or what ``GET /models`` says, asked
        once: :mod:`gent_openai.server_kind`); ``None`` while the server cannot say (asked
        again next time).
        """
        if self._kind is None:
            from gent_openai.server_kind import ask_kind

            self._kind = await ask_kind(self._get_client(), self.options.root)
        return self._kind

    def __repr__(self) -> str:
        o = self.options
        return f"OpenAIModel(model={o.model!r}, base_url={o.root!r}, api={o.api!r})"

    # ----------------------------------------------------------------- requests

    @property
    def _path(self) -> str:
        return "chat/completions" if self.options.api == "chat" else "completions"

    def request_body(self, request: ModelRequest, *, stream: bool) -> dict[str, Any]:
        """The JSON body sent for ``request``."""
        return self._body(request, stream, self._grammar(request.structure))

    def _body(self, request: ModelRequest, stream: bool, grammar: str | None) -> dict[str, Any]:
        o = self.options
        body: dict[str, Any] = {"model": o.model}
        stops = list(request.stop)
        max_tokens = request.max_tokens or o.max_tokens
        if o.api == "chat":
            # An instruct model behind the chat API: its own template, and with a structure
            # worked examples in the agent's format as earlier turns.
            from gent_natural import messages_to_openai
            from gent_prompt import render_chat

            messages = render_chat(request.messages, request.structure, few_shot=o.few_shot)
            body["messages"] = messages_to_openai(
                messages, request=True, images=self.supports_images
            )
        else:
            # A base model behind the completions API: the same prompt as the in-process
            # llamacpp model gets (with a structure, few-shot in the agent's own format;
            # without, a User:/Assistant: transcript that must stop before the user's turn).
            from gent_prompt import TRANSCRIPT_STOP, render_prompt

            body["prompt"] = render_prompt(request.messages, request.structure, few_shot=o.few_shot)
            if request.structure is None:
                stops.append(TRANSCRIPT_STOP)
        if stops:
            body["stop"] = stops
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        temperature = request.temperature if request.temperature is not None else o.temperature
        if temperature is not None:
            body["temperature"] = temperature
        if stream:
            body["stream"] = True
            if o.stream_usage:
                body["stream_options"] = {"include_usage": True}
        if grammar is not None:
            body.update(grammar_fields(self._kind, grammar))
        body.update(o.extra_body)
        return body

    def continuation_body(
        self, request: ModelRequest, written: str, structure: OutputStructure | None
    ) -> dict[str, Any]:
        """The streamed body that resumes an output after ``written`` (the model's text so
        far, ending with the thinking budget's bridge): the chat API gets it as a final
        assistant message, which llama.cpp's server continues (vLLM is asked to with
        ``continue_final_message``), the completions API at the end of the prompt.
        ``structure`` gives the grammar of what is left (``None``: none).
        """
        body = self._body(request, True, self._grammar(structure))
        if "messages" in body:
            body["messages"] = [*body["messages"], {"role": "assistant", "content": written}]
            if self._kind == "vllm":
                body["continue_final_message"] = True
                body["add_generation_prompt"] = False
        else:
            body["prompt"] = f"{body['prompt']}{written}"
        return body

    def render_request(self, request: ModelRequest) -> str:
        """The text sent for ``request``: the raw prompt with the completions API (few-shot
        example included when the agent has a structure), the messages as JSON with the chat
        API.
        """
        body = self.request_body(request, stream=False)
        if "messages" in body:
            return json.dumps(body["messages"], indent=2, ensure_ascii=False)
        return str(body["prompt"])

    def grammar(self, structure: OutputStructure | None) -> str | None:
        """The GBNF grammar sent with requests (option ``grammar``: ``auto`` asks the server
        which it is first, see :mod:`gent_openai.server_kind`), or ``None``; a grammar that
        fails gent's checker is not sent (with a warning).
        """
        if self.options.grammar == "auto" and structure is not None and self._kind is None:
            from gent_openai.server_kind import ask_kind_now

            self._kind = ask_kind_now(self.options)
        return self._grammar(structure)

    def _grammar(self, structure: OutputStructure | None) -> str | None:
        if structure is None or not self.sends_grammar():
            return None
        from gent_prompt import checked_agent_grammar

        return checked_agent_grammar(structure, logger)

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        o = self.options
        if retry_after is not None:
            return min(retry_after, o.max_backoff)
        delay = min(o.backoff * (2.0**attempt), o.max_backoff)
        return delay / 2 + random.uniform(0, delay / 2)

    async def _list_models(self, client: httpx.AsyncClient) -> list[str] | None:
        import httpx

        try:
            response = await client.get("models")
            if response.status_code != 200:
                return None
            data = response.json().get("data", [])
            return [str(item["id"]) for item in data if isinstance(item, dict) and "id" in item]
        except (httpx.HTTPError, ValueError, AttributeError):
            return None

    @asynccontextmanager
    async def _send(
        self, client: httpx.AsyncClient, body: dict[str, Any], attempt: int
    ) -> AsyncIterator[httpx.Response]:
        import httpx

        root, secret = self.options.root, self.options.secret()
        url = f"{root}/{self._path}"
        try:
            response = await client.send(
                client.build_request("POST", self._path, json=body), stream=True
            )
        except httpx.ConnectError as error:
            reason = _connect_reason(error, secret)
            raise _Retry(
                ModelError(
                    f"cannot connect to {root}: {reason}",
                    location=_LOCATION,
                    hint="Is the server running? Check the base URL (OPENAI_BASE_URL).",
                )
            ) from error
        except httpx.TimeoutException as error:
            raise _Retry(
                ModelError(
                    f"timed out waiting for {url} after {attempt + 1} attempt(s)",
                    location=_LOCATION,
                )
            ) from error
        except httpx.HTTPError as error:
            reason = redact(str(error) or type(error).__name__, secret)
            raise _Retry(
                ModelError(f"request to {url} failed: {reason}", location=_LOCATION)
            ) from error
        try:
            status = response.status_code
            if status >= 400:
                said = await _read_text(response, _ERROR_BODY_CHARS)
                message = redact(server_message(said or ""), secret)
                models = None
                if status == 404 or is_model_error(status, message):
                    models = await self._list_models(client)
                failure = status_error(
                    status,
                    message,
                    url=url,
                    model=self.options.model,
                    attempts=attempt + 1,
                    models=models,
                    secret=secret,
                )
                if status in RETRY_STATUSES or status >= 500:
                    raise _Retry(failure, _retry_after(response))
                raise failure
            yield response
        finally:
            await response.aclose()

    async def _events(self, response: httpx.Response) -> AsyncGenerator[ModelChunk, None]:
        import httpx

        chat = self.options.api == "chat"
        usage: Usage | None = None
        finish: str | None = None
        secret = self.options.secret()
        complete = False
        try:
            async for data in sse_data(response.aiter_text(), self.options.max_line_chars):
                if data == DONE:
                    complete = True
                    break
                try:
                    event = json.loads(data)
                except ValueError as error:
                    raise ModelError(
                        f"invalid event from the server: {redact(data[:200], secret)!r}",
                        location=_LOCATION,
                    ) from error
                if not isinstance(event, dict):
                    continue
                if event.get("error"):
                    message = redact(server_message(data), secret)
                    raise ModelError(
                        f"the server failed while streaming: {message}", location=_LOCATION
                    )
                usage = _usage(event.get("usage")) or usage
                for choice in event.get("choices") or []:
                    piece = (
                        (choice.get("delta") or {}).get("content") if chat else choice.get("text")
                    )
                    if piece:
                        yield ModelChunk(piece)
                    finish = choice.get("finish_reason") or finish
        except httpx.TimeoutException as error:
            raise _Retry(
                ModelError("timed out while streaming the response", location=_LOCATION)
            ) from error
        except httpx.HTTPError as error:
            reason = redact(str(error) or type(error).__name__, secret)
            raise _Retry(
                ModelError(f"connection lost while streaming: {reason}", location=_LOCATION)
            ) from error
        if not complete and finish is None:
            raise _Retry(
                ModelError(
                    "connection lost while streaming: the response ended without a finish "
                    "reason or [DONE]",
                    location=_LOCATION,
                )
            )
        yield ModelChunk("", usage=usage, finish_reason=finish)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        """Stream the response to ``request``; the last chunk carries usage (when the server
        reports it) and the finish reason. Closing the iterator closes the HTTP response. With
        the ``stream`` option off, the whole response comes as one chunk.

        Raises:
            ModelError: On authentication, model-name, connection or server failures.
        """
        if self._needs_kind(request):
            await self.server_kind()
        if not self.options.stream:
            whole = await self.complete(request)
            yield ModelChunk(whole.text, usage=whole.usage, finish_reason=whole.finish_reason)
            return
        budget = self.thinking_budget()
        if budget is None or request.structure is None:
            async with aclosing(self._stream_body(self.request_body(request, stream=True))) as all_:
                async for chunk in all_:
                    yield chunk
            return
        async with aclosing(self._budgeted(request, request.structure, budget)) as chunks:
            async for chunk in chunks:
                yield chunk

    async def _budgeted(
        self, request: ModelRequest, structure: OutputStructure, budget: int
    ) -> AsyncGenerator[ModelChunk, None]:
        """Stream ``request``; past ``budget`` characters of thinking, stop and continue the
        output after a bridge (see :mod:`gent_openai.thinking`).
        """
        from gent_openai.thinking import ThinkingWatch, after_thinking

        watch = ThinkingWatch(structure, budget)
        written: list[str] = []
        async with aclosing(self._stream_body(self.request_body(request, stream=True))) as first:
            async for chunk in first:
                written.append(chunk.text)
                if watch.feed(chunk.text):
                    yield ModelChunk(chunk.text)  # the rest of this output is not used
                    break
                yield chunk
            else:
                return
        grammar = self.sends_grammar()
        bridge = watch.bridge(open_action=not grammar)
        logger.info("thinking budget of %d characters reached; continuing", budget)
        yield ModelChunk(bridge)
        rest = after_thinking(structure) if grammar else None
        body = self.continuation_body(request, "".join(written) + bridge, rest)
        async with aclosing(self._stream_body(body)) as second:
            async for chunk in second:
                yield chunk

    async def _stream_body(self, body: dict[str, Any]) -> AsyncGenerator[ModelChunk, None]:
        """Send ``body`` and yield its chunks, retrying failures before the first one."""
        client = self._get_client()
        attempt = 0
        while True:
            received = 0
            try:
                async with (
                    self._send(client, body, attempt) as response,
                    aclosing(self._events(response)) as events,
                ):
                    async for chunk in events:
                        received += 1
                        yield chunk
                return
            except _Retry as retry:
                if received or attempt >= self.options.max_retries:
                    raise retry.error from retry.__cause__
                delay = self._delay(attempt, retry.retry_after)
                logger.info("retrying in %.2fs after: %s", delay, retry.error)
                await asyncio.sleep(delay)
                attempt += 1

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """Send ``request`` without streaming and return the whole response.

        Raises:
            ModelError: As :meth:`stream`.
        """
        if self._needs_kind(request):
            await self.server_kind()
        client = self._get_client()
        body = self.request_body(request, stream=False)
        attempt = 0
        while True:
            try:
                async with self._send(client, body, attempt) as response:
                    raw = await _read_text(response, self.options.max_line_chars)
                break
            except _Retry as retry:
                if attempt >= self.options.max_retries:
                    raise retry.error from retry.__cause__
                await asyncio.sleep(self._delay(attempt, retry.retry_after))
                attempt += 1
        if raw is None:
            raise ModelError(
                f"the response from {self.options.root}/{self._path} is longer than "
                f"{self.options.max_line_chars:,} characters (the max_line_chars option); it "
                "was dropped",
                location=_LOCATION,
                hint="Raise max_line_chars for a server that really answers at such length.",
            )
        try:
            data = json.loads(raw)
            choice = data["choices"][0]
        except (ValueError, KeyError, IndexError, TypeError) as error:
            raise ModelError(
                f"unexpected response from {self.options.root}/{self._path}: "
                f"{redact(raw[:200], self.options.secret())!r}",
                location=_LOCATION,
            ) from error
        if self.options.api == "chat":
            text = (choice.get("message") or {}).get("content") or ""
        else:
            text = choice.get("text") or ""
        return ModelResponse(
            text, _usage(data.get("usage")) or Usage(), choice.get("finish_reason")
        )

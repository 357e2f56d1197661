"""Native function calling as a baseline: the task's functions sent as the OpenAI ``tools``
parameter of the model's own server, its ``tool_calls`` judged by gent's checker.

This is how BFCL measures a model in its function-calling mode, and how most programs call a
model behind an OpenAI-compatible server. Per task, one chat-completions request goes to the
server of the configuration's model (:func:`server_of`: an ``openai`` model using the chat
API; its address, key, headers, timeout and extra body fields, as its own requests use them):

* the first turn's messages, as BFCL sends them in function-calling mode (no system prompt of
  its own);
* the task's functions as ``tools``, with BFCL's language hint appended to each description
  (:func:`gent_bfcl.prompt.with_language_hint`), the parameters converted by
  :func:`gent_bfcl.schema.to_json_schema` (as BFCL converts them for function-calling APIs),
  the names mapped to names the API accepts (:class:`gent_bfcl.names.APINames`:
  ``geometry.circumference`` is sent as ``geometry_circumference`` and mapped back);
* ``temperature`` (BFCL's) and ``max_tokens``; no ``tool_choice``: the model may answer
  without a call, as irrelevance tasks ask.

The response's ``tool_calls`` are decoded (:func:`decode_tool_calls`) and judged like the
prompt mode's calls. A response without ``tool_calls`` made no call, whatever its text holds:
a model that writes its call as text (in a ```json fence, say) where its server's chat template
does not turn it into ``tool_calls`` is measured as making no call, because that is what a
program using the ``tools`` parameter gets. Tool calls that cannot be decoded (arguments that
are not a JSON object) are ``unparsable`` (no call, so valid, in irrelevance categories, as
BFCL counts an undecodable answer there). A request that fails is a ``model_error`` result:
nothing a server does raises out of :func:`run_native`.

The request is a small direct HTTP call (httpx): a gent :class:`~gent_core.Model` streams
text, and native calls are not text.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gent_bfcl.categories import check_kind
from gent_bfcl.checker import check_task
from gent_bfcl.names import APINames
from gent_bfcl.prompt import with_language_hint
from gent_bfcl.pycalls import DecodeError
from gent_bfcl.runner import BFCL_TEMPERATURE, TaskResult, chat_message
from gent_bfcl.schema import to_tool_spec
from gent_bfcl.verdict import UNDECODED_AS_NO_CALL, FailureKind, Verdict

if TYPE_CHECKING:
    import httpx

    from gent_bfcl.data import BFCLTask
    from gent_core import Model

__all__ = [
    "NATIVE",
    "NATIVE_MAX_TOKENS",
    "ChatServer",
    "decode_tool_calls",
    "judge_message",
    "native_body",
    "run_native",
    "run_native_task",
    "server_of",
    "tools_ignored",
]

NATIVE = "native-fc"
"""The configuration label of native function calling in results."""

NATIVE_MAX_TOKENS = 256
"""Tokens per answer in native function calling when ``--max-tokens`` is not given: calls
written in a chat template's tool-call syntax, several of them in parallel categories."""

RESPONSE_CHARS = 1_000_000
"""The longest response body read; a longer one is a ``model_error``."""


@dataclass(frozen=True)
class ChatServer:
    """Where native calls are sent: an OpenAI-compatible server's chat API.

    Attributes:
        root: The API root (``http://127.0.0.1:8080/v1``).
        model: The model name sent with each request.
        headers: Headers sent with each request (the bearer token included; never shown).
        timeout: Seconds to wait for a response.
        extra_body: Fields added to every request body, as the model's own requests add them.
        secret: The API key, masked in every message.
    """

    root: str
    model: str
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    timeout: float = 60.0
    extra_body: Mapping[str, Any] = field(default_factory=dict)
    secret: str | None = field(default=None, repr=False)

    def redact(self, text: str) -> str:
        """``text`` with the API key masked (gent's :class:`~gent_core.cliframe.Redactor`)."""
        from gent_core.cliframe import Redactor

        return Redactor([self.secret] if self.secret else ()).redact(text)


def server_of(model: Model) -> ChatServer | str:
    """The server ``model`` calls, or why native calling cannot run on it (a note).

    Native calling needs an ``openai`` model using the chat API. Its settings are read from
    the model's ``options`` (``root``, ``model``, ``headers``, ``timeout``, ``extra_body``,
    ``secret()``), the same the model's own requests use; a back end without them is
    skipped with a note.
    """
    identity = model.identity()
    if identity.provider != "openai":
        return (
            f"the model is {identity.provider!r}, not a server: native function calling needs "
            "an OpenAI-compatible server (model: openai), whose chat API takes the 'tools' "
            "parameter"
        )
    if identity.operation != "chat":
        return "the model uses the completions API: native function calling needs api: chat"
    options: Any = getattr(model, "options", None)
    root, name = getattr(options, "root", None), getattr(options, "model", None)
    if not isinstance(root, str) or not isinstance(name, str):
        return "the openai model does not say its server's address and model name"
    reveal = getattr(options, "secret", None)
    secret = reveal() if callable(reveal) else None
    headers = {"Content-Type": "application/json", **dict(getattr(options, "headers", {}))}
    if secret:
        headers["Authorization"] = f"Bearer {secret}"
    return ChatServer(
        root.rstrip("/"),
        name,
        headers,
        float(getattr(options, "timeout", 60.0)),
        dict(getattr(options, "extra_body", {})),
        secret if isinstance(secret, str) else None,
    )


def native_tools(task: BFCLTask, names: APINames) -> list[dict[str, Any]]:
    """The task's functions as OpenAI ``tools`` (see the module docstring).

    Raises:
        BFCLSchemaError: When a function doc cannot be converted.
    """
    tools = []
    for function in with_language_hint(task.functions):
        spec = to_tool_spec(function)
        tools.append(
            {
                "type": "function",
                "function": {
                    "name": names.to_api(spec.bfcl_name),
                    "description": spec.description,
                    "parameters": spec.parameters,
                },
            }
        )
    return tools


def native_body(
    task: BFCLTask,
    server: ChatServer,
    names: APINames,
    *,
    max_tokens: int = NATIVE_MAX_TOKENS,
    temperature: float | None = BFCL_TEMPERATURE,
) -> dict[str, Any]:
    """The chat-completions request body for ``task``'s first turn.

    Raises:
        BFCLSchemaError: When a function doc cannot be converted.
        ValueError: For a message role other than system, user or assistant.
    """
    from gent_natural import messages_to_openai

    turn = [chat_message(task, message) for message in task.question[0]]
    body: dict[str, Any] = {
        "model": server.model,
        "messages": messages_to_openai(turn, request=True, images=False),
        "tools": native_tools(task, names),
        "max_tokens": max_tokens,
        "stream": False,
    }
    if temperature is not None:
        body["temperature"] = temperature
    return {**body, **server.extra_body}


def _arguments(name: str, arguments: Any) -> dict[str, Any]:
    from gent_core.bounds import read_json

    if isinstance(arguments, str):
        if not arguments.strip():
            return {}
        try:
            arguments = read_json(arguments, source=f"the arguments of {name!r}")
        except Exception as error:  # noqa: BLE001 - any unreadable arguments: not decodable
            raise DecodeError(f"the arguments of {name!r} are not JSON: {error}") from None
    if not isinstance(arguments, dict):
        raise DecodeError(f"the arguments of {name!r} are not a JSON object: {arguments!r}")
    return arguments


def decode_tool_calls(
    message: Mapping[str, Any], names: APINames
) -> list[dict[str, dict[str, Any]]]:
    """The ``tool_calls`` of a response's ``message`` as BFCL calls (``[{name: arguments}]``,
    names mapped back with ``names``); ``[]`` when it has none.

    Raises:
        DecodeError: When a tool call has no function name or its arguments are not a JSON
            object.
    """
    tool_calls = message.get("tool_calls") or []
    if not isinstance(tool_calls, list):
        raise DecodeError(f"'tool_calls' is not a list: {tool_calls!r}")
    calls: list[dict[str, dict[str, Any]]] = []
    for item in tool_calls:
        function = item.get("function") if isinstance(item, Mapping) else None
        name = function.get("name") if isinstance(function, Mapping) else None
        if not isinstance(name, str) or not name:
            raise DecodeError(f"a tool call without a function name: {item!r}")
        assert isinstance(function, Mapping)
        calls.append({names.from_api(name): _arguments(name, function.get("arguments"))})
    return calls


def judge_message(
    task: BFCLTask, message: Mapping[str, Any], names: APINames
) -> tuple[list[dict[str, dict[str, Any]]] | None, Verdict]:
    """Decode ``message``'s tool calls and judge them: ``(calls or None, verdict)``."""
    try:
        calls = decode_tool_calls(message, names)
    except DecodeError as error:
        if check_kind(task.category) == "irrelevance":
            return None, Verdict.ok(UNDECODED_AS_NO_CALL)
        return None, Verdict.fail(FailureKind.UNPARSABLE, f"cannot decode the tool calls: {error}")
    return calls, check_task(task, calls)


def _output(message: Mapping[str, Any]) -> str:
    """What the model wrote: its text, then its tool calls as the server sent them (JSON)."""
    content = message.get("content")
    text = content if isinstance(content, str) else ""
    tool_calls = message.get("tool_calls")
    if tool_calls:
        text += ("\n" if text else "") + json.dumps(tool_calls, ensure_ascii=False)
    return text


async def _post(
    client: httpx.AsyncClient, server: ChatServer, body: dict[str, Any]
) -> dict[str, Any]:
    """The response to ``body``, read within :data:`RESPONSE_CHARS`.

    Raises:
        RuntimeError: For a failed request or an unreadable response, the key masked.
    """
    import httpx

    url = f"{server.root}/chat/completions"
    try:
        async with client.stream("POST", url, json=body, headers=dict(server.headers)) as reply:
            pieces: list[str] = []
            size = 0
            async for piece in reply.aiter_text():
                size += len(piece)
                if size > RESPONSE_CHARS:
                    raise RuntimeError(f"the response is longer than {RESPONSE_CHARS:,} characters")
                pieces.append(piece)
            text = "".join(pieces)
            status = reply.status_code
    except httpx.HTTPError as error:
        reason = str(error) or type(error).__name__
        raise RuntimeError(server.redact(f"the request to {url} failed: {reason}")) from None
    if status >= 400:
        raise RuntimeError(server.redact(f"{url} answered {status}: {text.strip()[:500]}"))
    try:
        data = json.loads(text)
        message = data["choices"][0]["message"]
        if not isinstance(message, dict):
            raise TypeError(message)
    except (ValueError, KeyError, IndexError, TypeError):
        raise RuntimeError(
            server.redact(f"unexpected response from {url}: {text[:200]!r}")
        ) from None
    return dict(data)


def _usage(data: Mapping[str, Any], key: str) -> int | None:
    usage = data.get("usage")
    value = usage.get(key) if isinstance(usage, Mapping) else None
    return value if isinstance(value, int) else None


async def run_native_task(
    client: httpx.AsyncClient,
    server: ChatServer,
    task: BFCLTask,
    *,
    max_tokens: int = NATIVE_MAX_TOKENS,
    temperature: float | None = BFCL_TEMPERATURE,
) -> TaskResult:
    """Send ``task`` to ``server`` with its functions as ``tools`` and judge the reply."""
    started = time.perf_counter()
    names = APINames(str(function.get("name", "")) for function in task.functions)
    try:
        body = native_body(task, server, names, max_tokens=max_tokens, temperature=temperature)
        data = await _post(client, server, body)
    except Exception as error:  # noqa: BLE001 - a failing request is a result, not a crash
        message = f"{type(error).__name__}: {error}"
        return TaskResult(
            task.id,
            task.category,
            "",
            None,
            Verdict.fail(FailureKind.MODEL_ERROR, message),
            None,
            None,
            time.perf_counter() - started,
            config=NATIVE,
        )
    seconds = time.perf_counter() - started
    choice = data["choices"][0]
    message = choice["message"]
    calls, verdict = judge_message(task, message, names)
    finish = choice.get("finish_reason")
    return TaskResult(
        task.id,
        task.category,
        _output(message),
        calls,
        verdict,
        _usage(data, "prompt_tokens"),
        _usage(data, "completion_tokens"),
        seconds,
        finish if isinstance(finish, str) else None,
        config=NATIVE,
    )


async def run_native(
    server: ChatServer,
    tasks: Sequence[BFCLTask],
    *,
    max_tokens: int = NATIVE_MAX_TOKENS,
    temperature: float | None = BFCL_TEMPERATURE,
    on_result: Callable[[TaskResult], None] | None = None,
) -> list[TaskResult]:
    """Run :func:`run_native_task` for each task in turn, on one HTTP client; ``on_result``
    sees each result as it comes.
    """
    import httpx

    results = []
    async with httpx.AsyncClient(timeout=httpx.Timeout(server.timeout)) as client:
        for task in tasks:
            result = await run_native_task(
                client, server, task, max_tokens=max_tokens, temperature=temperature
            )
            if on_result is not None:
                on_result(result)
            results.append(result)
    return results


async def tools_ignored(server: ChatServer, task: BFCLTask) -> bool | None:
    """Whether ``server`` dropped ``task``'s tools from the prompt: the same request without
    ``tools`` (one token generated) is counted as just as many prompt tokens. A chat template
    that does not render tools does that (llama.cpp's server then calls the model without
    the functions, and silently). ``None`` when the server does not count prompt tokens or a
    request fails.
    """
    import httpx

    names = APINames(str(function.get("name", "")) for function in task.functions)
    counts = []
    try:
        body = native_body(task, server, names, max_tokens=1)
        async with httpx.AsyncClient(timeout=httpx.Timeout(server.timeout)) as client:
            for sent in (body, {key: value for key, value in body.items() if key != "tools"}):
                counts.append(_usage(await _post(client, server, sent), "prompt_tokens"))
    except Exception:  # noqa: BLE001 - a failed check says nothing
        return None
    if None in counts:
        return None
    return counts[0] == counts[1]

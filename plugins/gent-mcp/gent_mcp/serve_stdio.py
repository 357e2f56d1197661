r"""``gent mcp-serve`` over stdio: every request is answered, whatever the client sends.

The MCP SDK's stdio server drops a line it cannot read as a JSON-RPC message, so the client
that sent it waits for its own timeout; and a message that cannot be written as JSON (a lone
surrogate in a tool's output) ends its writer, and with it the server for every client.
:func:`checked_stdio_server` wraps the SDK's stdio server (which keeps stdout for the protocol
alone) on both sides:

* each line is first read as strict JSON, then by the SDK's parser; a line either refuses is
  answered here when it is a request (JSON-RPC answers neither notifications nor responses):

  - not JSON at all: ``-32700`` (parse error);
  - a request (a ``method`` and an ``id``) whose id is neither a string nor an integer (an
    object, a list, ``null``, ``1.5``: the SDK would take it for a notification and
    never answer): ``-32600`` (invalid request) with the id ``null``;
  - params holding a value JSON-RPC cannot carry to a tool — an integer of more than
    :data:`~gent_core.bounds.MAX_INT_DIGITS` digits, a lone surrogate (``"\ud800"``), a
    number out of range, ``NaN`` or ``Infinity`` (the SDK's parser reads them, but JSON from
    outside is strict JSON): ``-32602`` (invalid params), naming where;
  - anything else that is not a JSON-RPC request: ``-32600`` (invalid request);

  the answer carries the request's id when it can be read (a string, or an integer of at
  most :data:`~gent_core.bounds.MAX_INT_DIGITS` digits), else ``null``. Every refused line
  is logged (logger ``gent.mcp``);
* a message that cannot be written as JSON becomes ``-32603`` (internal error) for the same
  request id.

While it serves, the process's fd 0 reads the null device (as the SDK does for fd 1), so a
tool or a child process can never read the protocol's input.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import math
import os
import re
import sys
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from gent_core.bounds import MAX_INT_DIGITS

if TYPE_CHECKING:
    import mcp_types
    from mcp.shared.message import SessionMessage

__all__ = ["Refusal", "checked_stdio_server", "refusal"]

logger = logging.getLogger("gent.mcp")

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_MAX_SHOWN = 200


@dataclass(frozen=True)
class _HugeInteger:
    """An integer written with more digits than gent accepts (never converted)."""

    digits: int


def _integer(text: str) -> int | _HugeInteger:
    digits = len(text.lstrip("-"))
    return _HugeInteger(digits) if digits > MAX_INT_DIGITS else int(text)


@dataclass(frozen=True)
class _NotJSON:
    """``NaN``, ``Infinity`` or ``-Infinity``, which Python's parser reads but JSON has not."""

    name: str


def _where(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path)[1:]


def _value_problem(value: Any, path: tuple[str | int, ...]) -> str | None:
    """What makes ``value`` impossible to pass on, naming where; ``None`` when nothing."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, _HugeInteger):
            return (
                f"{_where(where)} is an integer of {item.digits} digits; at most "
                f"{MAX_INT_DIGITS} digits are accepted (send it as a string)"
            )
        if isinstance(item, _NotJSON):
            return f"{_where(where)} is {item.name}, which is not JSON (send a finite number)"
        if isinstance(item, float) and not math.isfinite(item):
            return f"{_where(where)} is a number out of range (send a finite number)"
        if isinstance(item, str) and (found := _LONE_SURROGATE.search(item)) is not None:
            return (
                f"{_where(where)} holds a lone surrogate (\\u{ord(found.group()):04x}), which "
                "is not a Unicode character; send valid Unicode text"
            )
        if isinstance(item, dict):
            for key, child in item.items():
                if _LONE_SURROGATE.search(key):
                    return f"a key in {_where(where)} holds a lone surrogate; send valid text"
                stack.append((child, (*where, key)))
        elif isinstance(item, list):
            stack.extend((child, (*where, index)) for index, child in enumerate(item))
    return None


def _readable_id(value: Any) -> int | str | None:
    """The request id, when it is one a response can carry."""
    if isinstance(value, str) and not _LONE_SURROGATE.search(value):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def _kind(value: Any) -> str:
    """What a JSON value is, in words (for an id that is not one)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, _HugeInteger):
        return f"an integer of {value.digits} digits"
    if isinstance(value, _NotJSON):
        return value.name
    kinds = {
        dict: "an object",
        list: "a list",
        float: "a number that is not an integer",
        str: "invalid text",
    }
    return kinds.get(type(value), type(value).__name__)


def _shown(line: str) -> str:
    line = line.strip()
    return line if len(line) <= _MAX_SHOWN else f"{line[:_MAX_SHOWN]}... ({len(line)} characters)"


@dataclass(frozen=True)
class Refusal:
    """A line the SDK cannot read: the answer to send (``None`` for no answer) and why.

    Attributes:
        reply: The JSON-RPC error to send back, or ``None`` (a notification, a response).
        reason: What is wrong, for the log.
    """

    reply: mcp_types.JSONRPCError | None
    reason: str


def _error(request_id: int | str | None, code: int, message: str) -> mcp_types.JSONRPCError:
    from mcp_types import ErrorData, JSONRPCError

    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


def refusal(line: str) -> Refusal | None:
    """``None`` when the SDK reads ``line`` as a JSON-RPC message, else what to answer.

    See the module docstring for the answers.
    """
    import mcp_types
    from mcp_types import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR

    constants: list[str] = []

    def constant(name: str) -> _NotJSON:
        constants.append(name)
        return _NotJSON(name)

    try:
        data = json.loads(line, parse_int=_integer, parse_constant=constant)
    except (ValueError, RecursionError) as error:
        reason = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
        if isinstance(error, RecursionError):
            reason = "it is nested too deeply"
        message = f"Parse error: the message is not JSON ({reason})"
        return Refusal(_error(None, PARSE_ERROR, message), f"{message}: {_shown(line)}")
    if (
        isinstance(data, dict)
        and "method" in data
        and "id" in data
        and _readable_id(data["id"]) is None
    ):
        message = (
            "Invalid Request: the id of a request must be a string or an integer, got "
            f"{_kind(data['id'])}"
        )
        return Refusal(_error(None, INVALID_REQUEST, message), f"{message}: {_shown(line)}")
    if constants:  # the SDK's parser reads NaN and Infinity; strict JSON does not
        detail = f"{constants[0]} is not a JSON value"
    else:
        try:
            mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except ValueError as error:
            sdk_problem = str(error).splitlines()
            detail = sdk_problem[1].strip() if len(sdk_problem) > 1 else str(error)
        else:
            return None
    if not isinstance(data, dict):
        message = "Invalid Request: a message must be one JSON object"
        return Refusal(_error(None, INVALID_REQUEST, message), f"{message}: {_shown(line)}")
    if "method" not in data or "id" not in data:
        kind = "notification" if "method" in data else "response"
        return Refusal(None, f"ignored an unreadable {kind} ({detail}): {_shown(line)}")
    request_id = _readable_id(data["id"])
    problem = _value_problem(data.get("params"), ("params",))
    if problem is not None:
        message = f"Invalid params: {problem}"
        return Refusal(_error(request_id, INVALID_PARAMS, message), message)
    problem = _value_problem({k: v for k, v in data.items() if k != "params"}, ("message",))
    message = f"Invalid Request: {problem or detail}"
    return Refusal(_error(request_id, INVALID_REQUEST, message), f"{message}: {_shown(line)}")


class _CheckedLines:
    """The lines of the input, minus those :func:`refusal` answers (sent to ``replies``)."""

    def __init__(self, lines: AsyncIterable[str]) -> None:
        self._lines = lines
        self.replies: Any = None  # the SDK's write stream, set once the server is entered

    def __aiter__(self) -> AsyncIterator[str]:
        return self._checked()

    async def _checked(self) -> AsyncIterator[str]:
        from mcp.shared.message import SessionMessage

        async for line in self._lines:
            if not line.strip():
                continue
            refused = refusal(line)
            if refused is None:
                yield line
                continue
            logger.warning("mcp-serve refused a message: %s", refused.reason)
            if refused.reply is not None and self.replies is not None:
                await self.replies.send(SessionMessage(refused.reply))


class _CheckedWrites:
    """The SDK's write stream, replacing a message JSON cannot hold by an error answer."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    async def send(self, item: SessionMessage) -> None:
        from mcp.shared.message import SessionMessage
        from mcp_types import INTERNAL_ERROR, JSONRPCError, JSONRPCResponse

        message = item.message
        try:
            message.model_dump_json(by_alias=True, exclude_unset=True)
        except ValueError as error:
            reason = str(error).removeprefix("Error serializing to JSON: ")
            if not isinstance(message, JSONRPCResponse | JSONRPCError):
                logger.warning("mcp-serve: a message could not be written: %s", reason)
                return
            text = f"Internal error: the result could not be written as JSON ({reason})"
            logger.warning("mcp-serve: %s", text)
            item = SessionMessage(_error(message.id, INTERNAL_ERROR, text), item.metadata)
        await self._stream.send(item)

    async def aclose(self) -> None:
        await self._stream.aclose()

    async def __aenter__(self) -> _CheckedWrites:
        await self._stream.__aenter__()
        return self

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        result: bool | None = await self._stream.__aexit__(*exc_info)
        return result


@contextlib.contextmanager
def _claimed_stdin() -> Iterator[IO[bytes]]:
    """The protocol's input, with fd 0 pointing at the null device meanwhile."""
    try:
        wire = os.dup(sys.stdin.fileno())
    except (AttributeError, OSError, ValueError):
        yield sys.stdin.buffer  # no descriptor to move (embedded): read it in place
        return
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)
    try:
        # closefd=False: a worker thread may still block on it after the server ends.
        yield os.fdopen(wire, "rb", closefd=False)
    finally:
        with contextlib.suppress(OSError):
            os.dup2(wire, 0)


@contextlib.asynccontextmanager
async def checked_stdio_server() -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's stdio server with the checks of the module docstring: yields the read and
    write streams to give ``Server.run``.
    """
    import anyio
    from mcp.server.stdio import stdio_server

    with _claimed_stdin() as wire:
        text = io.TextIOWrapper(wire, encoding="utf-8", errors="replace")
        lines = _CheckedLines(anyio.wrap_file(text))
        async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
            lines.replies = write_stream
            yield read_stream, _CheckedWrites(write_stream)

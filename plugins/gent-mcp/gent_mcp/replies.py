"""Replies the MCP SDK cannot read: found by their id, answered at once with an error.

A server that writes a reply the SDK cannot parse (a lone surrogate in a string, a
``structuredContent`` nested 5,000 deep) would leave the call waiting for the whole tool
timeout: the SDK drops a message it cannot read, so the reply never reaches its request, and
the model would be told the tool was slow. The stdio transport (:mod:`gent_mcp.stdio`) reads
the line's top-level ``id`` with :func:`reply_id` instead (a flat scan, without recursion into
the values, so no depth stops it) and hands the session a JSON-RPC error for that id
(:func:`unreadable_reply`): the call fails at once, saying
:data:`UNREADABLE` and why. The SDK's own HTTP transport does the same for a JSON response it
cannot parse (a ``PARSE_ERROR`` whose message starts ``Failed to parse JSON response``);
:func:`is_unreadable_reply` recognizes both.

Only a *reply* is answered so: a line whose top level has a ``method`` (a request or a
notification from the server) or no ``result``/``error`` is passed on as the exception it is,
and the SDK drops it, as before.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["UNREADABLE", "is_unreadable_reply", "reply_id", "unreadable_reply"]

UNREADABLE = "the server's reply could not be read"
"""What a call whose reply could not be read fails with (then the reason)."""

_MARK = "gent_mcp.unreadable_reply"
_SDK_PREFIX = "Failed to parse JSON response"
_WHITESPACE = " \t\r\n"
_MAX_REASON = 300
_SCANSTRING: Any = getattr(json.decoder, "scanstring")  # noqa: B009 - not in the stubs


class _Unscannable(Exception):
    """The line is not a JSON object whose top level can be read."""


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return index


def _string_end(text: str, index: int) -> tuple[str, int]:
    """The string starting at ``text[index]`` (a quote), and the index after it."""
    try:
        value, end = _SCANSTRING(text, index + 1)
    except ValueError as error:
        raise _Unscannable from error
    return str(value), int(end)


def _value_end(text: str, index: int) -> int:
    """The index after the JSON value starting at ``index``, without reading it: strings are
    skipped whole, brackets counted (any depth, no recursion).
    """
    depth = 0
    while index < len(text):
        char = text[index]
        if char == '"':
            index = _string_end(text, index)[1]
            if depth == 0:
                return index
            continue
        if char in "[{":
            depth += 1
        elif char in "]}":
            if depth == 0:
                return index  # the end of the enclosing object
            depth -= 1
            if depth == 0:
                return index + 1
        elif depth == 0 and char in ",":
            return index
        index += 1
    raise _Unscannable


def _top_level(text: str) -> dict[str, tuple[int, int]]:
    """The top-level keys of the JSON object ``text`` -> where their values are."""
    index = _skip_space(text, 0)
    if index >= len(text) or text[index] != "{":
        raise _Unscannable
    index += 1
    found: dict[str, tuple[int, int]] = {}
    while True:
        index = _skip_space(text, index)
        if index < len(text) and text[index] == "}" and not found:
            return found
        if index >= len(text) or text[index] != '"':
            raise _Unscannable
        key, index = _string_end(text, index)
        index = _skip_space(text, index)
        if index >= len(text) or text[index] != ":":
            raise _Unscannable
        start = _skip_space(text, index + 1)
        end = _value_end(text, start)
        found.setdefault(key, (start, end))
        index = _skip_space(text, end)
        if index < len(text) and text[index] == ",":
            index += 1
            continue
        if index < len(text) and text[index] == "}":
            return found
        raise _Unscannable


def reply_id(line: str) -> str | int | None:
    """The id of the JSON-RPC reply written on ``line``, read without parsing the rest;
    ``None`` when the line is not a reply (it has a ``method``, or neither ``result`` nor
    ``error``) or its top level cannot be read.
    """
    try:
        keys = _top_level(line)
    except _Unscannable:
        return None
    if "method" in keys or not ({"result", "error"} & keys.keys()) or "id" not in keys:
        return None
    start, end = keys["id"]
    try:
        value = json.loads(line[start:end])
    except ValueError:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    return value


def unreadable_reply(request_id: str | int, error: BaseException) -> Any:
    """A ``SessionMessage`` holding the JSON-RPC error that fails request ``request_id``:
    :data:`UNREADABLE`, and why (``error``, the parser's complaint, shortened).
    """
    from mcp.shared.message import SessionMessage
    from mcp_types import PARSE_ERROR, ErrorData, JSONRPCError

    reason = " ".join(str(error).split())
    if len(reason) > _MAX_REASON:
        reason = reason[:_MAX_REASON] + "…"
    message = f"{UNREADABLE} ({reason})" if reason else UNREADABLE
    data = {_MARK: True}
    return SessionMessage(
        JSONRPCError(
            jsonrpc="2.0",
            id=request_id,
            error=ErrorData(code=PARSE_ERROR, message=message, data=data),
        )
    )


def is_unreadable_reply(code: int, message: str, data: Any) -> bool:
    """Whether a JSON-RPC error (``code``, ``message``, ``data``) stands for a reply that
    could not be read: one made by :func:`unreadable_reply`, or by the SDK's HTTP transport.
    """
    from mcp_types import PARSE_ERROR

    if code != PARSE_ERROR:
        return False
    return (isinstance(data, dict) and data.get(_MARK) is True) or message.startswith(_SDK_PREFIX)

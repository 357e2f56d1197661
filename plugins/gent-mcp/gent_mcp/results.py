"""From an MCP ``CallToolResult`` to a gent :class:`~gent_core.tools.ToolResult`.

How each kind of MCP content reaches the model:

==========================  ==================================================================
MCP content                 gent
==========================  ==================================================================
``structuredContent``       the raw output (the tool chain writes it as JSON or YAML); the
                            text blocks are then left out, since the MCP spec has servers
                            repeat the structured value there as serialized JSON
text                        the output (several blocks joined by blank lines)
image                       an :class:`~gent_core.messages.ImagePart` in ``media``
embedded text resource      in the output, headed by its URI, when it has at most
                            ``inline_resource_chars`` characters; otherwise on the clipboard,
                            with a line in the output saying so
embedded binary resource    an image (``image/*``) goes to ``media``; anything else is
                            described by one line (URI, type, size), never dumped
resource link               one line with its name, URI and type (gent does not fetch it)
audio                       one line saying that audio was left out
==========================  ==================================================================

When ``structuredContent`` is the output, lines that would have gone into a text output
(resource notes, inline resources) go to the clipboard instead. ``isError`` makes the result
an error whose model-facing message is the server's text.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Any

from gent_core.errors import Location, ToolExecutionError
from gent_core.messages import ImagePart
from gent_core.tools.result import ToolResult

if TYPE_CHECKING:
    import mcp_types

__all__ = ["to_tool_result"]


def _decoded(data: str) -> bytes | None:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None


def _size(data: str) -> str:
    """The decoded size of base64 ``data``, without decoding it."""
    data = data.strip()
    padding = len(data) - len(data.rstrip("="))
    return f"{max(0, len(data) * 3 // 4 - padding)} bytes"


class _Collector:
    """Walks the content blocks of one result."""

    def __init__(self, tool: str, inline_limit: int) -> None:
        self.tool = tool
        self.inline_limit = inline_limit
        self.pieces: list[tuple[str, bool]] = []  # (text, whether it is a text block)
        self.media: list[ImagePart] = []
        self.clipboard: list[str] = []

    def note(self, text: str) -> None:
        self.pieces.append((text, False))

    def image(self, data: str, mime_type: str, origin: str) -> None:
        decoded = _decoded(data)
        if decoded is None:
            self.note(f"[{origin} ({mime_type}) could not be decoded: invalid base64]")
        else:
            self.media.append(ImagePart(decoded, mime_type or "image/png"))

    def add(self, block: Any) -> None:
        kind = getattr(block, "type", None)
        if kind == "text":
            self.pieces.append((block.text, True))
        elif kind == "image":
            self.image(block.data, block.mime_type, "image")
        elif kind == "audio":
            self.note(
                f"[audio ({block.mime_type}, {_size(block.data)}) left out: gent does not "
                "pass audio to models]"
            )
        elif kind == "resource_link":
            described = f"{block.name} — {block.uri}"
            if block.mime_type:
                described += f" ({block.mime_type})"
            if block.description:
                described += f": {block.description}"
            self.note(f"[resource link: {described}]")
        elif kind == "resource":
            self.resource(block.resource)
        else:
            self.note(f"[content of type {kind!r} left out: gent does not know it]")

    def resource(self, contents: Any) -> None:
        uri = str(contents.uri)
        mime_type = contents.mime_type or ""
        text = getattr(contents, "text", None)
        if isinstance(text, str):
            if len(text) <= self.inline_limit:
                self.note(f"[resource {uri}]\n{text}")
            else:
                self.clipboard.append(f"[resource {uri}]\n{text}")
                self.note(f"[resource {uri} ({len(text)} characters) added to the clipboard]")
            return
        blob = getattr(contents, "blob", "")
        if mime_type.startswith("image/"):
            self.image(blob, mime_type, f"resource {uri}")
        else:
            self.note(
                f"[binary resource {uri} ({mime_type or 'unknown type'}, {_size(blob)}) not shown]"
            )


def to_tool_result(
    result: mcp_types.CallToolResult, *, tool: str, server: str, inline_limit: int
) -> ToolResult:
    """Map an MCP tool result to a :class:`ToolResult` (see the module docstring).

    Args:
        result: What the server returned.
        tool: The tool's gent name, for messages.
        server: The server's label, for messages.
        inline_limit: Longest embedded text resource put in the output.
    """
    collected = _Collector(tool, inline_limit)
    for block in result.content:
        collected.add(block)
    if result.is_error:
        text = "\n\n".join(piece for piece, _ in collected.pieces).strip()
        if not text and result.structured_content is not None:
            text = str(result.structured_content)
        text = text or "the server reported an error without a message"
        error = ToolExecutionError(
            f"tool {tool!r} of MCP server {server!r} reported an error: {text}",
            location=Location(tool=tool),
            model_message=f"Tool {tool!r} failed: {text}",
        )
        return ToolResult(output=None, media=collected.media, status="error", error=error)
    output: Any
    clipboard = list(collected.clipboard)
    if result.structured_content is not None:
        output = result.structured_content
        clipboard.extend(piece for piece, is_text in collected.pieces if not is_text)
    else:
        parts = [piece for piece, _ in collected.pieces]
        output = parts[0] if len(parts) == 1 else "\n\n".join(parts)
    return ToolResult(output=output, media=collected.media, clipboard_text=clipboard)

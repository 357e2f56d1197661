"""A real MCP server (the SDK's MCPServer, over stdio) with tools that exercise gent-mcp:
every kind of content, a tool error, a crash mid-call, a tool that hangs, and one that writes a
line without end over the MCP channel.

Run as ``python toolbox_server.py [--pid-file FILE]``; with ``--pid-file`` the server writes
its process id there as soon as it starts (so tests can check it is gone afterwards), and the
``sleep`` tool creates ``FILE.sleeping`` when a call starts (so tests know it is under way).
"""

from __future__ import annotations

import base64
import os
import sys
import time
from pathlib import Path

from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import (
    INVALID_PARAMS,
    AudioContent,
    BlobResourceContents,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)

# A 1x1 transparent PNG.
PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kg"
    "AAAABJRU5ErkJggg=="
)

SLEEPING: Path | None = None
if "--pid-file" in sys.argv:
    pid_file = Path(sys.argv[sys.argv.index("--pid-file") + 1])
    pid_file.write_text(str(os.getpid()))
    SLEEPING = pid_file.with_name(pid_file.name + ".sleeping")

# The MCP channel, kept before the SDK diverts standard output away from it.
WIRE = os.dup(sys.stdout.fileno())

server = MCPServer("toolbox")


@server.tool(description="Repeat the text.")
def echo(text: str, times: int = 1) -> str:
    return " ".join([text] * times)


@server.tool(description="Exit the server process in the middle of the call.")
def crash() -> str:
    print("toolbox: crashing on purpose", file=sys.stderr, flush=True)
    os._exit(3)


@server.tool(description="Write one line without end over the MCP channel, then answer.")
def flood(megabytes: int = 200) -> str:
    block = b"x" * (1 << 20)
    for _ in range(megabytes):  # a client that reads it all fails its test instead of hanging
        os.write(WIRE, block)
    return "flooded"


@server.tool(description="Sleep for the given seconds, then answer.")
def sleep(seconds: float) -> str:
    if SLEEPING is not None:
        SLEEPING.write_text(str(seconds))
    time.sleep(seconds)
    return "awake"


@server.tool(description="Fail with the given message (an isError result).")
def fail(message: str) -> str:
    raise ToolError(message)


@server.tool(description="Refuse the call with a protocol error.")
def refuse(message: str) -> str:
    raise MCPError(code=INVALID_PARAMS, message=message)


@server.tool(description="A text and an image.", structured_output=False)
def picture() -> list[TextContent | ImageContent]:
    encoded = base64.b64encode(PIXEL).decode("ascii")
    return [TextContent(text="a pixel:"), ImageContent(data=encoded, mime_type="image/png")]


@server.tool(description="Resources of every kind.", structured_output=False)
def documents(
    long_chars: int = 10,
) -> list[TextContent | EmbeddedResource | ResourceLink | AudioContent]:
    return [
        TextContent(text="here they are"),
        EmbeddedResource(
            resource=TextResourceContents(
                uri="file:///notes/short.txt", mime_type="text/plain", text="short note"
            )
        ),
        EmbeddedResource(
            resource=TextResourceContents(
                uri="file:///notes/long.txt", mime_type="text/plain", text="x" * long_chars
            )
        ),
        EmbeddedResource(
            resource=BlobResourceContents(
                uri="file:///data.bin",
                mime_type="application/octet-stream",
                blob=base64.b64encode(b"\0" * 30).decode(),
            )
        ),
        ResourceLink(
            name="manual", uri="https://example.invalid/manual.pdf", mime_type="application/pdf"
        ),
        AudioContent(data=base64.b64encode(b"RIFF").decode(), mime_type="audio/wav"),
    ]


@server.tool(description="Structured weather.")
def weather(city: str) -> dict[str, object]:
    return {"city": city, "celsius": 21.5}


@server.tool(
    description="Pretend to delete a file.",
    annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True),
)
def delete(path: str) -> str:
    return f"deleted {path}"


@server.tool(name="dotted.name", description="A tool whose name holds a dot, as gent's may.")
def dotted() -> str:
    return "dotted ok"


@server.tool(name="files/read all", description="A tool whose name gent must adapt.")
def odd_name() -> str:
    return "odd ok"


if __name__ == "__main__":
    server.run("stdio")

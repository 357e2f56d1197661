"""A scripted OpenAI-like HTTP server on 127.0.0.1 for unit tests of gent-openai's own logic
(retries, error messages, SSE reading, closing the stream)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted reply: a status and a JSON body, an SSE stream of events (any iterable, so
    an endless one streams until the client disconnects), or raw bytes written as an event
    stream (``raw``: any iterable, so it may be as long as needed)."""

    status: int = 200
    body: Any = None
    events: Iterable[Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds between streamed events
    drop_after: int | None = None  # close the connection after this many events
    raw: Iterable[bytes] | None = None


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


class FakeServer:
    """Replies to POSTs with the scripted :class:`Reply` objects in order; GET /v1/models
    returns :attr:`models` (each ``owned_by`` :attr:`owned_by` when set). Records every
    request in :attr:`requests`."""

    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.models: list[str] = ["model-a", "model-b"]
        self.owned_by: str | None = None
        self.requests: list[Seen] = []
        self.disconnected = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _record(self, body: Any) -> None:
                server.requests.append(
                    Seen(self.command, self.path, dict(self.headers.items()), body)
                )

            def do_GET(self) -> None:
                self._record(None)
                if self.path.endswith("/models"):
                    owner = {"owned_by": server.owned_by} if server.owned_by else {}
                    entries = [{"id": name, **owner} for name in server.models]
                    self._json(200, {"data": entries})
                else:
                    self._json(404, {"error": {"message": "no such path"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"null")
                self._record(body)
                reply = (
                    server.replies.pop(0) if server.replies else Reply(500, {"error": "unscripted"})
                )
                if reply.events is None and reply.raw is None:
                    self._json(reply.status, reply.body, reply.headers)
                    return
                self.send_response(reply.status)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    for piece in reply.raw or ():
                        self.wfile.write(piece)
                        self.wfile.flush()
                    for index, event in enumerate(reply.events or ()):
                        if reply.drop_after is not None and index >= reply.drop_after:
                            self.connection.shutdown(2)
                            return
                        data = event if isinstance(event, str) else json.dumps(event)
                        self.wfile.write(f"data: {data}\n\n".encode())
                        self.wfile.flush()
                        time.sleep(reply.delay)
                except (BrokenPipeError, ConnectionResetError):
                    server.disconnected.set()
                self.close_connection = True

            def _json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    @property
    def posts(self) -> list[Seen]:
        return [request for request in self.requests if request.method == "POST"]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def chat_event(
    text: str | None = None, finish: str | None = None, usage: Any = None
) -> dict[str, Any]:
    """A chat.completion.chunk event."""
    choices = (
        []
        if text is None and finish is None
        else [{"index": 0, "delta": {"content": text} if text else {}, "finish_reason": finish}]
    )
    event: dict[str, Any] = {"object": "chat.completion.chunk", "choices": choices}
    if usage is not None:
        event["usage"] = usage
    return event


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (right now)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port

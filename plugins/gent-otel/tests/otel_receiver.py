"""A local OTLP/HTTP trace receiver for tests: decodes each ``ExportTraceServiceRequest``
posted to ``/v1/traces`` (protobuf) and keeps its spans, on 127.0.0.1 only."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

__all__ = ["ReceivedSpan", "TraceReceiver"]


def _value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return tuple(_value(item) for item in value.array_value.values)
    if kind is None:
        return None
    return getattr(value, kind)


@dataclass
class ReceivedSpan:
    """One span as it arrived."""

    name: str
    span_id: bytes
    parent_span_id: bytes
    trace_id: bytes
    kind: int
    status_code: int
    status_message: str
    attributes: dict[str, Any] = field(default_factory=dict)
    resource: dict[str, Any] = field(default_factory=dict)
    scope: str = ""


class TraceReceiver:
    """Serves ``POST /v1/traces`` on a free port of 127.0.0.1 until :meth:`close`.

    Args:
        held: Answer no request until :attr:`release` is set (a receiver that is silent
            until the test says otherwise; :attr:`arrived` tells when a request waits).

    Attributes:
        spans: Every span received, in arrival order.
        content_types: The ``Content-Type`` of each request.
        arrived: Set when the first request has arrived.
        release: While ``held`` and unset, requests wait unanswered.
    """

    def __init__(self, *, held: bool = False) -> None:
        self.spans: list[ReceivedSpan] = []
        self.content_types: list[str] = []
        self.arrived = threading.Event()
        self.release = threading.Event()
        if not held:
            self.release.set()
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                receiver.arrived.set()
                receiver.release.wait()
                if self.path != "/v1/traces":
                    self.send_error(404)
                    return
                receiver.add(body, self.headers.get("Content-Type", ""))
                reply = ExportTraceServiceResponse().SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, format: str, *args: Any) -> None:
                del format, args

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # Polled every 0.05 s for close()'s shutdown (the default 0.5 s was each test's wait).
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    @property
    def endpoint(self) -> str:
        """The base URL to give ``OTEL_EXPORTER_OTLP_ENDPOINT``."""
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def add(self, body: bytes, content_type: str) -> None:
        """Decode one export request and keep its spans."""
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        with self._lock:
            self.content_types.append(content_type)
            for resource_spans in request.resource_spans:
                resource = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        self.spans.append(
                            ReceivedSpan(
                                name=span.name,
                                span_id=span.span_id,
                                parent_span_id=span.parent_span_id,
                                trace_id=span.trace_id,
                                kind=span.kind,
                                status_code=span.status.code,
                                status_message=span.status.message,
                                attributes={a.key: _value(a.value) for a in span.attributes},
                                resource=resource,
                                scope=scope_spans.scope.name,
                            )
                        )

    def close(self) -> None:
        """Stop serving (a held request is answered first)."""
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

"""Where gent's spans go: a provider given to :func:`use_tracer_provider`, the application's
global tracer provider, or one gent-otel builds from the ``OTEL_*`` variables (see
:mod:`gent_otel.settings` for when each applies).

OpenTelemetry's SDK and exporter are imported only here, and only when a run starts with an
exporter configured. gent-otel's own provider is made once per process (per exporter
configuration), is not installed as the global provider, and is flushed and shut down when
the process exits, within about a second (:mod:`gent_otel.exit`): a receiver that is down or
silent costs at most that and one warning line, never the run. An OTLP export request may take
:data:`~gent_otel.settings.EXPORT_TIMEOUT` seconds unless ``OTEL_EXPORTER_OTLP_TIMEOUT`` says
otherwise.
"""

from __future__ import annotations

import importlib
import logging
import sys
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gent_otel.settings import (
    SUPPORTED_EXPORTERS,
    configured_exporters,
    export_timeout,
    otlp_protocol,
    sdk_disabled,
)

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.trace import Tracer

__all__ = ["TRACER_NAME", "reset", "tracer", "use_tracer_provider"]

TRACER_NAME = "gent_otel"
"""The instrumentation scope of gent's spans."""

_VERSION = "0.1.0"
_logger = logging.getLogger("gent_otel")
_lock = threading.Lock()
_own: dict[tuple[str, ...], Tracer | None] = {}
_providers: list[TracerProvider] = []
_chosen: list[Any] = []


def use_tracer_provider(provider: Any) -> None:
    """Send gent's spans to ``provider`` (any OpenTelemetry ``TracerProvider``) from the next
    run on, whatever the global provider and the variables say; ``None`` undoes it.

    For applications that keep their provider out of the global one, and for tests (an SDK
    provider with an in-memory exporter). ``OTEL_SDK_DISABLED=true`` still turns tracing off.
    """
    with _lock:
        _chosen.clear()
        if provider is not None:
            _chosen.append(provider)


def tracer(environ: Mapping[str, str] | None = None) -> Tracer | None:
    """The tracer of a run starting now, or ``None`` when tracing is off.

    Args:
        environ: The variables to read (``os.environ`` by default).
    """
    if sdk_disabled(environ):
        return None
    with _lock:
        chosen = _chosen[0] if _chosen else None
    if chosen is not None:
        picked: Tracer = chosen.get_tracer(TRACER_NAME, _VERSION)
        return picked
    application = _application_tracer()
    if application is not None:
        return application
    exporters = configured_exporters(environ)
    if not exporters:
        return None
    key = (*exporters, otlp_protocol(environ))
    with _lock:
        if key not in _own:
            _own[key] = _build(exporters, otlp_protocol(environ))
        return _own[key]


def _application_tracer() -> Tracer | None:
    """The tracer of the global provider the application set, if it set one.

    Nothing is imported: an application that set a provider has imported the API already.
    """
    trace: Any = sys.modules.get("opentelemetry.trace")
    if trace is None:
        return None
    provider = trace.get_tracer_provider()
    if isinstance(provider, (trace.ProxyTracerProvider, trace.NoOpTracerProvider)):
        return None
    found: Tracer = provider.get_tracer(TRACER_NAME, _VERSION)
    return found


def _build(exporters: tuple[str, ...], protocol: str) -> Tracer | None:
    """A tracer of a new SDK provider exporting to ``exporters``; ``None`` (after a warning)
    when none of them can be made.
    """
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider

        resource = Resource.create()
        if str(resource.attributes.get("service.name", "")).startswith("unknown_service"):
            resource = resource.merge(Resource({"service.name": "gent"}))
        # Ended by gent-otel's own bounded exit handler, not the SDK's unbounded one.
        provider = TracerProvider(resource=resource, shutdown_on_exit=False)
        added = 0
        for name in exporters:
            processor = _processor(name, protocol)
            if processor is not None:
                provider.add_span_processor(processor)
                added += 1
    except Exception as error:  # noqa: BLE001 - a bad setting disables tracing, not the run
        _logger.warning(
            "gent-otel: tracing is off: the tracer provider could not be set up (%s: %s)",
            type(error).__name__,
            error,
        )
        return None
    if not added:
        return None
    from gent_otel.exit import flush_at_exit

    _providers.append(provider)
    flush_at_exit(_providers)
    return provider.get_tracer(TRACER_NAME, _VERSION)


def _processor(name: str, protocol: str) -> Any:
    """The span processor of one exporter name, or ``None`` (after a warning)."""
    from opentelemetry.sdk.trace.export import (
        BatchSpanProcessor,
        ConsoleSpanExporter,
        SimpleSpanProcessor,
    )

    if name == "console":  # written to standard error: standard output is the answer's
        return SimpleSpanProcessor(ConsoleSpanExporter(out=sys.stderr))
    if name != "otlp":
        _logger.warning(
            "gent-otel: OTEL_TRACES_EXPORTER names %r, which gent-otel does not support "
            "(accepted: %s, none); it is ignored",
            name,
            ", ".join(SUPPORTED_EXPORTERS),
        )
        return None
    if protocol == "http/protobuf":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        return BatchSpanProcessor(_watched(OTLPSpanExporter(timeout=export_timeout())))
    if protocol == "grpc":
        try:
            grpc = importlib.import_module("opentelemetry.exporter.otlp.proto.grpc.trace_exporter")
        except ImportError:
            _logger.warning(
                "gent-otel: OTLP over grpc needs the package "
                "opentelemetry-exporter-otlp-proto-grpc; no spans are exported "
                "(install it, or set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf)"
            )
            return None
        return BatchSpanProcessor(_watched(grpc.OTLPSpanExporter(timeout=export_timeout())))
    _logger.warning(
        "gent-otel: the OTLP protocol %r is not supported (accepted: http/protobuf, grpc); "
        "no spans are exported",
        protocol,
    )
    return None


def _watched(exporter: Any) -> Any:
    """``exporter`` watched for the spans it cannot send, the SDK's own log lines silenced
    (see :mod:`gent_otel.exit`).
    """
    from gent_otel.exit import quiet_sdk_logs, watch

    quiet_sdk_logs()
    endpoint = str(getattr(exporter, "_endpoint", "") or "the OTLP endpoint")
    return watch(exporter, endpoint)


def reset() -> None:
    """Shut down and forget the providers gent-otel made (tests; spans still buffered are
    exported first).
    """
    with _lock:
        providers = list(_providers)
        _providers.clear()
        _own.clear()
    for provider in providers:
        provider.shutdown()

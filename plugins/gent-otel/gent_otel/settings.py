"""What the environment asks of gent-otel: whether to trace, where to, and whether to record
content. Reads ``OTEL_*`` variables only; imports nothing of OpenTelemetry, so deciding that
nothing is configured costs a few dictionary lookups.

When tracing is on (checked at the start of each run, in this order):

1. ``OTEL_SDK_DISABLED=true``: never.
2. The application has set a global tracer provider (``opentelemetry.trace
   .set_tracer_provider``, or ``opentelemetry-instrument``): gent's spans go to it, whatever
   the variables say (it was configured by them already, or on purpose in code).
3. ``OTEL_TRACES_EXPORTER`` names exporters (``otlp``, ``console``; ``none`` turns tracing
   off), or, without it, ``OTEL_EXPORTER_OTLP_ENDPOINT`` or
   ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` is set (meaning ``otlp``): gent-otel builds a
   tracer provider of its own with those exporters.
4. Otherwise: off. No SDK is imported, nothing is sent, nothing is logged.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = [
    "CAPTURE_CONTENT",
    "EXIT_TIMEOUT",
    "EXIT_TIMEOUT_VARIABLE",
    "EXPORT_TIMEOUT",
    "SUPPORTED_EXPORTERS",
    "capture_content",
    "configured_exporters",
    "exit_timeout",
    "export_timeout",
    "otlp_protocol",
    "sdk_disabled",
]

CAPTURE_CONTENT = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
"""The variable that turns content capture on (OpenTelemetry's GenAI instrumentations' own)."""

SUPPORTED_EXPORTERS = ("otlp", "console")
"""The exporter names ``OTEL_TRACES_EXPORTER`` may list (besides ``none``)."""

EXPORT_TIMEOUT = 1.0
"""Seconds one OTLP export request may take (its retries included) unless
``OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`` or ``OTEL_EXPORTER_OTLP_TIMEOUT`` says otherwise; the
SDK's own default (10 s) would keep a silent receiver's flush going long after a run."""

EXIT_TIMEOUT = 1.0
"""Seconds the process's exit waits for gent-otel's providers to send the spans they still
hold (:mod:`gent_otel.exit`) unless :data:`EXIT_TIMEOUT_VARIABLE` says otherwise."""

EXIT_TIMEOUT_VARIABLE = "GENT_OTEL_EXIT_TIMEOUT"
"""The variable that changes :data:`EXIT_TIMEOUT` (seconds, a positive number)."""

_TRUE = frozenset({"1", "true", "yes", "on"})
_CAPTURE_ON = _TRUE | {"span_only", "span_and_event"}
_ENDPOINTS = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")


def _environment(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def sdk_disabled(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``OTEL_SDK_DISABLED`` is true (any case): then gent-otel records nothing."""
    value = _environment(environ).get("OTEL_SDK_DISABLED", "")
    return value.strip().lower() in _TRUE


def capture_content(environ: Mapping[str, str] | None = None) -> bool:
    """Whether spans record content: the task and answer, the messages and the model's
    output, tool arguments and results (credentials masked). Off unless
    ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`` is ``true`` (or ``1``, ``yes``,
    ``on``, ``SPAN_ONLY``, ``SPAN_AND_EVENT``).
    """
    value = _environment(environ).get(CAPTURE_CONTENT, "")
    return value.strip().lower() in _CAPTURE_ON


def configured_exporters(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The exporters the environment asks for, lower-cased, in order, without repeats:
    ``OTEL_TRACES_EXPORTER``'s list (empty when it says ``none``), else ``("otlp",)`` when an
    OTLP endpoint variable is set, else none. Names gent-otel does not know are kept (the
    caller warns about them).
    """
    env = _environment(environ)
    listed = env.get("OTEL_TRACES_EXPORTER")
    if listed is not None and listed.strip():
        names = [name.strip().lower() for name in listed.split(",") if name.strip()]
        if "none" in names:
            return ()
        return tuple(dict.fromkeys(names))
    if any(env.get(name, "").strip() for name in _ENDPOINTS):
        return ("otlp",)
    return ()


def otlp_protocol(environ: Mapping[str, str] | None = None) -> str:
    """The OTLP protocol for traces: ``OTEL_EXPORTER_OTLP_TRACES_PROTOCOL``, else
    ``OTEL_EXPORTER_OTLP_PROTOCOL``, else ``http/protobuf`` (lower-cased).
    """
    env = _environment(environ)
    for name in ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"):
        value = env.get(name, "").strip().lower()
        if value:
            return value
    return "http/protobuf"


def export_timeout(environ: Mapping[str, str] | None = None) -> float:
    """Seconds an OTLP export request may take: ``OTEL_EXPORTER_OTLP_TRACES_TIMEOUT``, else
    ``OTEL_EXPORTER_OTLP_TIMEOUT`` (a positive number of seconds; another value is ignored),
    else :data:`EXPORT_TIMEOUT`.
    """
    names = ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT")
    return _seconds(_environment(environ), names, EXPORT_TIMEOUT)


def exit_timeout(environ: Mapping[str, str] | None = None) -> float:
    """Seconds the exit waits for the spans still held: ``GENT_OTEL_EXIT_TIMEOUT`` (a positive
    number of seconds; another value is ignored), else :data:`EXIT_TIMEOUT`.
    """
    return _seconds(_environment(environ), (EXIT_TIMEOUT_VARIABLE,), EXIT_TIMEOUT)


def _seconds(env: Mapping[str, str], names: tuple[str, ...], default: float) -> float:
    """The first of ``names`` that holds a positive, finite number of seconds, else
    ``default``.
    """
    for name in names:
        try:
            value = float(env.get(name, "").strip())
        except ValueError:
            continue
        if 0 < value < float("inf"):
            return value
    return default

"""gent-otel: OpenTelemetry traces of gent's runs, model calls and tool calls.

The plugin (:mod:`gent_otel.plugin`) implements gent's lifecycle hooks; the spans follow the
GenAI semantic conventions (:mod:`gent_otel.spans`); the standard ``OTEL_*`` variables say
whether and where they are exported (:mod:`gent_otel.settings`, :mod:`gent_otel.provider`).
Importing it imports nothing of OpenTelemetry: the SDK is loaded when a run starts with
tracing on.
"""

from __future__ import annotations

from gent_otel.provider import use_tracer_provider

__version__ = "0.1.0"
__all__ = ["use_tracer_provider"]

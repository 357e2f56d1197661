"""The end of gent-otel's own tracer providers: a bounded flush and one warning.

The SDK's providers flush and shut down in an exit handler of their own, which, with a
receiver that is down or silent, waits for every export's retries (7-11 s with the defaults),
prints a raw log line for each retry, and turns a Ctrl-C meanwhile into a traceback. For the
providers gent-otel builds (:mod:`gent_otel.provider`), instead:

* each exporter is watched (:class:`WatchedExporter`): the spans it could not send are
  counted;
* the SDK's exporter and processor loggers are silenced (:func:`quiet_sdk_logs`): their retry
  and failure lines never reach the terminal;
* one exit handler (:func:`flush_at_exit`) shuts the providers down in a daemon thread and
  waits at most :data:`EXIT_FLUSH_SECONDS` for it (``GENT_OTEL_EXIT_TIMEOUT`` changes it:
  :func:`gent_otel.settings.exit_timeout`); then, if spans were lost or the flush did
  not finish, it logs **one** warning naming the receiver. A Ctrl-C (or SIGTERM) meanwhile
  does not print a traceback: ``gent``'s own exit handling notes it and exits with its status
  (the same as for a signal during any gent command's exit); elsewhere the wait simply ends.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import threading
from collections.abc import Sequence
from typing import Any

from gent_otel.settings import EXIT_TIMEOUT, exit_timeout

__all__ = [
    "EXIT_FLUSH_SECONDS",
    "QUIET_LOGGERS",
    "WatchedExporter",
    "exit_warning",
    "flush_at_exit",
    "quiet_sdk_logs",
    "watch",
]

EXIT_FLUSH_SECONDS = EXIT_TIMEOUT
"""Seconds the exit waits for gent-otel's providers to send the spans they still hold, unless
``GENT_OTEL_EXIT_TIMEOUT`` says otherwise."""

QUIET_LOGGERS = ("opentelemetry.exporter", "opentelemetry.sdk")
"""The SDK loggers silenced once gent-otel builds a provider of its own (their children
inherit the level: the OTLP exporters, the HTTP transport, the batch processor)."""

_logger = logging.getLogger("gent_otel")
_lock = threading.Lock()
_watched: list[WatchedExporter] = []
_registered: list[bool] = []
_exit_worker: list[_ExitWorker] = []  # the one flush_at_exit started


class WatchedExporter:
    """A span exporter that counts what its inner exporter could not send.

    Args:
        inner: The SDK exporter (an ``OTLPSpanExporter``).
        endpoint: Where it sends (for the warning).
    """

    def __init__(self, inner: Any, endpoint: str) -> None:
        self.inner = inner
        self.endpoint = endpoint
        self.lost = 0

    def export(self, spans: Sequence[Any]) -> Any:
        """Export ``spans`` through the inner exporter; count them when that fails."""
        from opentelemetry.sdk.trace.export import SpanExportResult

        try:
            result = self.inner.export(spans)
        except Exception:  # noqa: BLE001 - an exporter's failure never reaches the run
            result = SpanExportResult.FAILURE
        if result is not SpanExportResult.SUCCESS:
            with _lock:
                self.lost += len(spans)
        return result

    def shutdown(self) -> None:
        """Shut the inner exporter down."""
        self.inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Flush the inner exporter."""
        return bool(self.inner.force_flush(timeout_millis))


def watch(inner: Any, endpoint: str) -> Any:
    """``inner`` wrapped in a :class:`WatchedExporter` that is also a ``SpanExporter`` (for
    the SDK's processors), remembered for the exit's warning.
    """
    from opentelemetry.sdk.trace.export import SpanExporter

    class _Exporter(WatchedExporter, SpanExporter):
        pass

    exporter = _Exporter(inner, endpoint)
    with _lock:
        _watched.append(exporter)
    return exporter


def quiet_sdk_logs() -> None:
    """Silence :data:`QUIET_LOGGERS` (their records are not even created)."""
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def flush_at_exit(providers: list[Any]) -> None:
    """Register (once) the exit handler that ends ``providers`` (the list gent-otel keeps,
    read at exit) within :func:`~gent_otel.settings.exit_timeout` seconds (read at exit).

    The thread that shuts them down is started now and waits: Python 3.12 refuses to start a
    thread while the interpreter exits, and one started earlier keeps running then.
    """
    with _lock:
        if _registered:
            return
        _registered.append(True)
        _exit_worker.append(_ExitWorker())
    atexit.register(_end, providers)


class _ExitWorker:
    """A daemon thread, started before the exit, that shuts providers down when asked."""

    def __init__(self) -> None:
        self.asked = threading.Event()
        self.done = threading.Event()
        self.providers: list[Any] = []
        threading.Thread(target=self._work, name="gent-otel-exit", daemon=True).start()

    def _work(self) -> None:
        self.asked.wait()
        try:
            for provider in self.providers:
                with contextlib.suppress(Exception):
                    provider.shutdown()
        finally:
            self.done.set()

    def shut_down(self, providers: list[Any]) -> threading.Event:
        """Shut ``providers`` down on the thread; the event is set when it is done."""
        self.providers = providers
        self.asked.set()
        return self.done


def _end(providers: list[Any], seconds: float | None = None) -> None:
    """Shut ``providers`` down on a daemon thread, wait up to ``seconds`` (by default
    :func:`~gent_otel.settings.exit_timeout`), warn once.
    """
    if seconds is None:
        seconds = exit_timeout()
    ending = list(providers)
    providers.clear()
    if not ending:
        return
    worker = _exit_worker.pop() if _exit_worker else _ExitWorker()
    done = worker.shut_down(ending)
    try:
        finished = done.wait(seconds)
    except KeyboardInterrupt:  # outside gent's own exit handling: stop waiting
        finished = False
    warning = exit_warning(finished, seconds)
    if warning is not None:
        _logger.warning("%s", warning)


def exit_warning(finished: bool, seconds: float = EXIT_FLUSH_SECONDS) -> str | None:
    """The one warning of the exit, or ``None`` when every span was sent."""
    with _lock:
        lost = sum(exporter.lost for exporter in _watched)
        endpoints = list(dict.fromkeys(exporter.endpoint for exporter in _watched))
    if finished and not lost:
        return None
    where = ", ".join(endpoints) or "the configured receiver"
    if lost:
        what = f"{lost} span(s) could not be sent to the OpenTelemetry receiver at {where}"
    else:
        what = f"the OpenTelemetry receiver at {where} did not take the last spans"
    if not finished:
        what += f" (gave up after {seconds:g} s)"
    return f"gent-otel: {what}; is it running? (spans are dropped, the run is not affected)"

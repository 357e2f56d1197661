"""The execution context's cancellation token."""

from __future__ import annotations

import threading

from gent_core.context import Cancellation


def test_callbacks_run_once_on_cancel_with_the_reason() -> None:
    token = Cancellation()
    seen: list[str] = []
    token.on_cancel(lambda: seen.append(token.reason))
    token.cancel("user pressed ctrl-c")
    token.cancel("again")
    assert seen == ["user pressed ctrl-c"]
    assert token.cancelled


def test_unsubscribed_callback_is_not_called() -> None:
    token = Cancellation()
    seen: list[int] = []
    unsubscribe = token.on_cancel(lambda: seen.append(1))
    unsubscribe()
    token.cancel()
    assert seen == []


def test_registering_after_cancel_runs_at_once() -> None:
    token = Cancellation()
    token.cancel()
    seen: list[int] = []
    token.on_cancel(lambda: seen.append(1))
    assert seen == [1]


def test_cancel_from_another_thread() -> None:
    token = Cancellation()
    fired = threading.Event()
    token.on_cancel(fired.set)
    worker = threading.Thread(target=token.cancel)
    worker.start()
    worker.join()
    assert fired.is_set()

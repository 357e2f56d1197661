"""The bounded regular-expression helper (gent_core._regexes).

Catastrophic inputs are chosen so that backtracking would take hours on any machine
((a|aa)+$ on 100 "a" and a "b" tries about 1.6**100 paths): the deadline is what ends them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest

from gent_core._regexes import (
    DEFAULT_PATTERN_TIMEOUT,
    TIMEOUT_VARIABLE,
    PatternError,
    PatternTimeoutError,
    compile_pattern,
    pattern_timeout,
    search,
    set_pattern_timeout,
)

CATASTROPHIC = r"(a|aa)+$"
HOURS_OF_BACKTRACKING = "a" * 100 + "b"


@pytest.fixture(autouse=True)
def _default_timeout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(TIMEOUT_VARIABLE, raising=False)
    set_pattern_timeout(None)
    yield
    set_pattern_timeout(None)


def test_a_catastrophic_pattern_stops_at_its_deadline_with_a_clear_error() -> None:
    with pytest.raises(PatternTimeoutError) as caught:
        search(CATASTROPHIC, HOURS_OF_BACKTRACKING, timeout=0.05)
    message = str(caught.value)
    assert "the pattern '(a|aa)+$' took longer than 0.05 s on this text" in message
    assert "simplify it" in message
    assert caught.value.pattern == CATASTROPHIC
    assert caught.value.seconds == 0.05


def test_the_default_deadline_applies_without_a_timeout() -> None:
    set_pattern_timeout(0.05)
    with pytest.raises(PatternTimeoutError, match=r"longer than 0\.05 s"):
        compile_pattern(r"^(x|xx)+y").match("x" * 100)


def test_normal_patterns_match_as_re_does() -> None:
    assert search(r"\d+", "abc 123 def") is not None
    found = search(r"(\w+)@(\w+)\.com", "mail bob@example.com now")
    assert found is not None
    assert found.group(1, 2) == ("bob", "example")
    assert search(r"^\d+$", "12a") is None
    assert compile_pattern("b+").fullmatch("bbb") is not None
    assert compile_pattern("b+").match("abbb") is None


def test_re_flags_and_compiled_re_patterns_are_honoured() -> None:
    assert search("HELLO", "say hello", re.IGNORECASE) is not None
    assert search(re.compile("HELLO", re.IGNORECASE), "say hello") is not None
    assert search(r"^\w+$", "héllo", re.ASCII) is None  # re.ASCII differs in value from regex's
    assert search(r"^\w+$", "héllo") is not None


def test_a_slow_match_does_not_hold_the_gil() -> None:
    """While a catastrophic match runs in one thread, another thread keeps running Python."""
    finished = threading.Event()
    counted = 0

    def slow() -> None:
        try:
            search(CATASTROPHIC, HOURS_OF_BACKTRACKING, timeout=0.5)
        except PatternTimeoutError:
            pass
        finally:
            finished.set()

    worker = threading.Thread(target=slow)
    worker.start()
    while not finished.is_set():
        counted += 1
        finished.wait(0.001)
    worker.join()
    assert counted > 10  # the main thread ran all along (with re it would not run at all)


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("(unclosed", "it is not a valid regular expression (missing )"),
        ("(?:a{1000}){1000}", "would unroll into more than 100,000 steps"),
        ("x{99999999999}", "would unroll into more than 100,000 steps"),
    ],
)
def test_unusable_patterns_say_why(pattern: str, problem: str) -> None:
    with pytest.raises(PatternError) as caught:
        compile_pattern(pattern)
    assert problem in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_counted_repetitions_within_the_bound_compile() -> None:
    assert compile_pattern(r"(?:\d{3}-){2}\d{4}").fullmatch("555-123-4567") is not None
    assert compile_pattern(r"[{1000000}]+").search("{") is not None  # braces in a class
    assert compile_pattern(r"a\{100000\}").search("a{100000}") is not None  # escaped


def test_the_deadline_comes_from_the_environment_or_the_setter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert pattern_timeout() == DEFAULT_PATTERN_TIMEOUT == 1.0
    monkeypatch.setenv(TIMEOUT_VARIABLE, "2.5")
    assert pattern_timeout() == 2.5
    monkeypatch.setenv(TIMEOUT_VARIABLE, "soon")
    assert pattern_timeout() == DEFAULT_PATTERN_TIMEOUT
    set_pattern_timeout(7)
    assert pattern_timeout() == 7
    with pytest.raises(ValueError, match="> 0"):
        set_pattern_timeout(0)

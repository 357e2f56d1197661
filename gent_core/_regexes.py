r"""Regular expressions with a deadline: the one way gent applies a pattern it did not write.

A pattern from a model, a tool schema, an MCP server, an answer schema or an evaluation suite
may backtrack catastrophically: ``(a|aa)+$`` on forty ``a`` and a ``b`` takes Python's
:mod:`re` minutes, holding the GIL (so no other thread, not even the event loop, runs) and
ignoring Ctrl-C. Every such pattern goes through this module instead:

* patterns are compiled with the `regex <https://pypi.org/project/regex/>`_ module (the
  syntax of :mod:`re`, plus ``\p{...}`` classes and a few extensions); its matching takes a
  timeout and releases the GIL while it works (``concurrent=True``), so a slow match blocks
  neither other threads nor Ctrl-C;
* a match that runs longer than its deadline raises :class:`PatternTimeoutError` ("the pattern
  ... took longer than 1 s on this text; simplify it");
* a pattern that does not compile, or whose counted repetitions would unroll into more than
  :data:`MAX_REPEAT_EXPANSION` steps (``(?:a{1000}){1000}``: the ``regex`` module expands them
  while compiling, which no timeout covers), raises :class:`PatternError`.

**The deadline.** Each match may run :func:`pattern_timeout` seconds:
:data:`DEFAULT_PATTERN_TIMEOUT` (1 s), or the ``GENT_PATTERN_TIMEOUT`` environment variable
(seconds), or what :func:`set_pattern_timeout` set (process-wide). A call may pass its own
``timeout`` (``search_text`` gives the shorter of this deadline and the time left of its
call). Inside :func:`shared_deadline` (one schema check of one value), the matches share one
deadline of that length, so a value holding many strings cannot multiply it.

Patterns gent writes itself over bounded text may keep using :mod:`re`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import os
import re
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gent_core.errors import GentError

if TYPE_CHECKING:
    import regex

__all__ = [
    "DEFAULT_PATTERN_TIMEOUT",
    "MAX_REPEAT_EXPANSION",
    "TIMEOUT_VARIABLE",
    "BoundedPattern",
    "PatternError",
    "PatternTimeoutError",
    "compile_pattern",
    "pattern_timeout",
    "search",
    "set_pattern_timeout",
    "shared_deadline",
]

DEFAULT_PATTERN_TIMEOUT = 1.0
"""Seconds one match of a pattern on one text may take, unless changed."""

TIMEOUT_VARIABLE = "GENT_PATTERN_TIMEOUT"
"""The environment variable that changes :data:`DEFAULT_PATTERN_TIMEOUT` (seconds, > 0)."""

MAX_REPEAT_EXPANSION = 100_000
"""Most steps the counted repetitions of one pattern may unroll into (``a{1000}`` is 1,000;
``(?:a{100}){100}`` is 10,000)."""

_SHOWN_CHARS = 100
_HINT = "Avoid nested repetition such as (a+)+ or (a|aa)*, which backtracks catastrophically."
_logger = logging.getLogger("gent.regexes")
_timeout: float | None = None  # set by set_pattern_timeout


def _shown(pattern: str) -> str:
    return repr(pattern if len(pattern) <= _SHOWN_CHARS else pattern[:_SHOWN_CHARS] + "...")


class PatternError(GentError, ValueError):
    """A pattern that cannot be used: it does not compile, or it is too complex.

    Attributes:
        pattern: The pattern as given.
        problem: What is wrong with it (``"it is not a valid regular expression (...)"``).
        syntax_error: The engine's message when the pattern does not compile, else ``None``.
    """

    def __init__(self, pattern: str, problem: str, *, syntax_error: str | None = None) -> None:
        super().__init__(f"the pattern {_shown(pattern)} cannot be used: {problem}")
        self.pattern = pattern
        self.problem = problem
        self.syntax_error = syntax_error


class PatternTimeoutError(GentError, TimeoutError):
    """A match ran out of time (catastrophic backtracking, or a huge text).

    Attributes:
        pattern: The pattern.
        seconds: The deadline it ran out of.
        text_chars: Length of the text it was matched on.
    """

    def __init__(self, pattern: str, seconds: float, text_chars: int) -> None:
        super().__init__(
            f"the pattern {_shown(pattern)} took longer than {seconds:g} s on this text "
            f"({text_chars:,} characters); simplify it",
            hint=_HINT,
        )
        self.pattern = pattern
        self.seconds = seconds
        self.text_chars = text_chars


def set_pattern_timeout(seconds: float | None) -> None:
    """Set the seconds one match may take, process-wide; ``None`` goes back to the default
    (``GENT_PATTERN_TIMEOUT`` or :data:`DEFAULT_PATTERN_TIMEOUT`).

    Raises:
        ValueError: ``seconds`` is not a finite number greater than 0.
    """
    global _timeout
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"a pattern timeout is a number of seconds > 0, got {seconds!r}")
    _timeout = seconds


def pattern_timeout() -> float:
    """The seconds one match may take (see the module docstring)."""
    if _timeout is not None:
        return _timeout
    return _timeout_from_environment(os.environ.get(TIMEOUT_VARIABLE))


@functools.lru_cache(maxsize=8)
def _timeout_from_environment(value: str | None) -> float:
    if value is None or not value.strip():
        return DEFAULT_PATTERN_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if math.isfinite(seconds) and seconds > 0:
        return seconds
    _logger.warning(
        "%s=%r is not a number of seconds > 0; using %g s",
        TIMEOUT_VARIABLE,
        value,
        DEFAULT_PATTERN_TIMEOUT,
    )
    return DEFAULT_PATTERN_TIMEOUT


@dataclass(frozen=True)
class _Deadline:
    seconds: float
    at: float


_shared: ContextVar[_Deadline | None] = ContextVar("gent_shared_pattern_deadline", default=None)


@contextlib.contextmanager
def shared_deadline(seconds: float | None = None) -> Iterator[None]:
    """Within the block, matches without their own ``timeout`` share one deadline: together
    they may take ``seconds`` (by default :func:`pattern_timeout`); once it has passed, each
    further match raises :class:`PatternTimeoutError` at once. Nested blocks keep the outer
    deadline. The deadline follows the context (a thread or task started inside copies it).
    """
    if _shared.get() is not None:
        yield
        return
    length = pattern_timeout() if seconds is None else seconds
    token = _shared.set(_Deadline(length, time.monotonic() + length))
    try:
        yield
    finally:
        _shared.reset(token)


# ---------------------------------------------------------------------- complexity

_COUNTED = re.compile(r"\{(\d*)(?:,(\d*))?\}")


def _repeat_expansion(pattern: str, limit: int = MAX_REPEAT_EXPANSION) -> int:
    """About how many steps ``pattern``'s counted repetitions unroll into (capped above
    ``limit``): a group's size times its minimum count, nested groups multiplying.
    Over-counts rather than under-counts (``|`` adds, a comment in verbose mode counts).
    """
    cap = limit + 1
    sizes = [0]  # the size of each open group so far
    last = 0  # the size of the atom a quantifier would repeat
    index, end = 0, len(pattern)
    while index < end:
        char = pattern[index]
        if char == "\\":
            index += 2
        elif char == "[":
            index += 1
            if pattern.startswith("^", index):
                index += 1
            if pattern.startswith("]", index):
                index += 1
            while index < end and pattern[index] != "]":
                index += 2 if pattern[index] == "\\" else 1
            index += 1
        elif char == "(":
            sizes.append(0)
            last = 0
            index += 1
            continue
        elif char == ")":
            inner = sizes.pop() if len(sizes) > 1 else 0
            last = max(inner, 1)
            sizes[-1] = min(sizes[-1] + last, cap)
            index += 1
            continue
        elif char == "{" and (counted := _COUNTED.match(pattern, index)):
            low_text = counted[1] or "0"
            low = cap if len(low_text) > 9 else int(low_text)
            if low > 1 and last:
                grown = min(last * low, cap)
                sizes[-1] = min(sizes[-1] + grown - last, cap)
                last = grown
            index = counted.end()
            continue
        else:
            index += 1
        sizes[-1] = min(sizes[-1] + 1, cap)
        last = 1
    return min(sum(sizes), cap)


# ---------------------------------------------------------------------- compiling


def _engine_flags(flags: int) -> int:
    """``re`` flags as the ``regex`` module's (they differ for ``ASCII``)."""
    import regex as engine

    mapped = 0
    for name in ("IGNORECASE", "LOCALE", "MULTILINE", "DOTALL", "UNICODE", "VERBOSE", "ASCII"):
        if flags & getattr(re, name):
            mapped |= getattr(engine, name)
    return mapped


class BoundedPattern:
    """A compiled pattern whose matches run with a deadline (see the module docstring).

    Make one with :func:`compile_pattern`.

    Attributes:
        pattern: The pattern as written.
        compiled: The ``regex`` module's pattern object.
    """

    def __init__(self, pattern: str, compiled: regex.Pattern[str]) -> None:
        self.pattern = pattern
        self.compiled = compiled

    def search(
        self, text: str, pos: int = 0, endpos: int | None = None, *, timeout: float | None = None
    ) -> regex.Match[str] | None:
        """The first match in ``text[pos:endpos]``, or ``None``.

        Raises:
            PatternTimeoutError: The search took longer than ``timeout`` seconds (by default
                :func:`pattern_timeout`, or what is left of a :func:`shared_deadline`).
        """
        return self._run(self.compiled.search, text, pos, endpos, timeout)

    def match(
        self, text: str, pos: int = 0, endpos: int | None = None, *, timeout: float | None = None
    ) -> regex.Match[str] | None:
        """A match at ``pos``, or ``None`` (raises like :meth:`search`)."""
        return self._run(self.compiled.match, text, pos, endpos, timeout)

    def fullmatch(
        self, text: str, pos: int = 0, endpos: int | None = None, *, timeout: float | None = None
    ) -> regex.Match[str] | None:
        """A match of all of ``text[pos:endpos]``, or ``None`` (raises like :meth:`search`)."""
        return self._run(self.compiled.fullmatch, text, pos, endpos, timeout)

    def _run(
        self,
        method: Callable[..., regex.Match[str] | None],
        text: str,
        pos: int,
        endpos: int | None,
        timeout: float | None,
    ) -> regex.Match[str] | None:
        shared = _shared.get() if timeout is None else None
        if shared is not None:
            seconds, remaining = shared.seconds, shared.at - time.monotonic()
        else:
            seconds = remaining = pattern_timeout() if timeout is None else max(timeout, 0.0)
        if remaining <= 0 and shared is not None:
            raise PatternTimeoutError(self.pattern, seconds, len(text))
        try:
            return method(text, pos, endpos, concurrent=True, timeout=max(remaining, 0.0))
        except TimeoutError:
            raise PatternTimeoutError(self.pattern, seconds, len(text)) from None

    def __repr__(self) -> str:
        return f"<BoundedPattern {_shown(self.pattern)}>"


def compile_pattern(pattern: str | re.Pattern[str], flags: int = 0) -> BoundedPattern:
    """Compile ``pattern`` (text, or a compiled :mod:`re` pattern whose flags are kept) with
    :mod:`re` ``flags``; compiled patterns are cached.

    Raises:
        PatternError: The pattern is not text, does not compile, or its counted repetitions
            unroll into more than :data:`MAX_REPEAT_EXPANSION` steps; the message says which.
    """
    if isinstance(pattern, re.Pattern):
        source = pattern.pattern
        if not isinstance(source, str):
            raise PatternError(repr(source), "it is a bytes pattern; a text pattern is needed")
        flags |= pattern.flags
    elif isinstance(pattern, str):
        source = pattern
    else:
        raise PatternError(repr(pattern), f"it is a {type(pattern).__name__}, not text")
    return _compile(source, _engine_flags(flags))


@functools.lru_cache(maxsize=512)
def _compile(source: str, flags: int) -> BoundedPattern:
    import regex as engine

    if _repeat_expansion(source) > MAX_REPEAT_EXPANSION:
        raise PatternError(
            source,
            f"its counted repetitions ({{n}}) would unroll into more than "
            f"{MAX_REPEAT_EXPANSION:,} steps; use smaller counts or + and *",
        )
    try:
        return BoundedPattern(source, engine.compile(source, flags))
    except engine.error as error:
        raise PatternError(
            source, f"it is not a valid regular expression ({error})", syntax_error=str(error)
        ) from None
    except (OverflowError, RecursionError, MemoryError, ValueError) as error:
        raise PatternError(source, f"it is too complex to compile ({error})") from None


def search(
    pattern: str | re.Pattern[str],
    text: str,
    flags: int = 0,
    *,
    timeout: float | None = None,
) -> regex.Match[str] | None:
    """:func:`re.search` with a deadline: the first match of ``pattern`` in ``text``.

    Raises:
        PatternError: ``pattern`` cannot be used (see :func:`compile_pattern`).
        PatternTimeoutError: The search took longer than ``timeout`` seconds (by default
            :func:`pattern_timeout`).
    """
    return compile_pattern(pattern, flags).search(text, timeout=timeout)

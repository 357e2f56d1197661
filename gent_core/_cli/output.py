r"""How the ``gent`` command writes: every text redacted, then made safe for a terminal.

Everything ``gent`` prints (the live view, ``--json``, ``gent describe``, ``gent parse``, error
messages) goes through :class:`Output`, so two rules hold on every path:

* **secrets are masked**: each text passes the run's redaction (the config's credentials of
  8 characters or more, URL passwords: see :mod:`gent_core._config.secrets`), also when a model
  or a tool echoes them — except the user's own text (the task, the answer), written with
  ``redact=False`` and never altered;
* **control characters are shown, never obeyed**: a model or a tool can write escape sequences
  (window title, cursor moves, erased lines, OSC 8 links), carriage returns or bidirectional
  overrides; :func:`visible` writes each such character as an escape (``\x1b``, ``\r``,
  ``\u202e``), with or without colours.

JSON is written by :func:`gent_core._serialize.write_json` (strict JSON; unsafe characters as
``\uXXXX`` escapes) with the same redaction of its string values; keys are never redacted.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any, TextIO

__all__ = ["Output", "visible"]

_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_NAMED = {"\r": "\\r", "\x0b": "\\v", "\x0c": "\\f", "\x08": "\\b", "\x00": "\\0"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    r"""Return ``text`` with every character a terminal would act on written as an escape.

    Kept as they are: printable text, newlines and tabs. Written as escapes: the other C0
    controls (``\x1b`` starts every escape sequence; ``\r`` rewrites the line), DEL, the C1
    controls (``\x9b`` is an escape sequence on some terminals), the Unicode line separators,
    bidirectional overrides and isolates, and lone surrogates.
    """
    return _UNSAFE.sub(_escape, text)


def _identity(text: str) -> str:
    return text


class Output:
    """Where a ``gent`` command writes its output and its errors.

    Args:
        redact: Applied to every text before it is written (masks secrets); none by default.
        out: The output stream (standard output by default, looked up when writing).
        err: The error stream (standard error by default, looked up when writing).
    """

    def __init__(
        self,
        redact: Callable[[str], str] | None = None,
        *,
        out: TextIO | None = None,
        err: TextIO | None = None,
    ) -> None:
        self.redact = redact or _identity
        self._out = out
        self._err = err

    @property
    def out(self) -> TextIO:
        """The output stream."""
        return self._out or sys.stdout

    @property
    def err(self) -> TextIO:
        """The error stream."""
        return self._err or sys.stderr

    def clean(self, text: str, *, redact: bool = True) -> str:
        """``text`` redacted (unless ``redact`` is false: the user's own text) and with its
        control characters made visible.
        """
        return visible(self.redact(text) if redact else text)

    def write(
        self, text: str, *, err: bool = False, clean: bool = True, redact: bool = True
    ) -> None:
        """Write ``text`` (cleaned unless ``clean`` is false; redacted unless ``redact`` is
        false) and flush.

        Characters the stream's encoding cannot hold are written as backslash escapes
        instead of failing.
        """
        stream = self.err if err else self.out
        if clean:
            text = self.clean(text, redact=redact)
        try:
            stream.write(text)
        except UnicodeEncodeError:
            encoding = getattr(stream, "encoding", None) or "utf-8"
            stream.write(text.encode(encoding, "backslashreplace").decode(encoding))
        stream.flush()

    def line(self, text: str = "", *, err: bool = False, redact: bool = True) -> None:
        """Write ``text`` and a newline (not redacted when ``redact`` is false: the user's own
        text, such as the answer).
        """
        self.write(text + "\n", err=err, redact=redact)

    def error(
        self,
        command: str,
        message: str,
        *,
        cause: BaseException | type[BaseException] | None = None,
    ) -> None:
        """Write ``<command>: error: <message>`` on the error stream, then the docs page that
        explains the fix for ``cause`` (an error or error type; see
        :data:`gent_core._cli.errors.DOCS_PAGES`), when there is one.
        """
        self.line(f"{command}: error: {message}", err=True)
        if cause is not None:
            from gent_core._cli.errors import docs_hint

            hint = docs_hint(cause)
            if hint is not None:
                self.line(f"  {hint}", err=True)

    def failure(self, command: str, error: BaseException) -> None:
        """Report ``error`` (its message, then its docs page): ``error(command, str(error),
        cause=error)``.
        """
        self.error(command, str(error), cause=error)

    def json(self, value: Any, *, indent: int | None = 2, redact: bool = True) -> None:
        """Write ``value`` as strict JSON and a newline: its string values redacted unless
        ``redact`` is false (a run record already redacted by
        :func:`~gent_core.records.redact_record`), its keys never.
        """
        from gent_core._serialize import write_json  # only for JSON: the start stays light

        text = write_json(value, indent=indent, redact=self.redact if redact else None)
        self.write(text + "\n", clean=False)

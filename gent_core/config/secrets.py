"""Secrets of a configuration: which values are secret and how they are masked.

A value is secret when it came from the environment (``${VAR}`` expansion) or when it is
written under a key whose name looks like a credential (``api_key``, ``token``,
``password``, ``secret``..., case-insensitive). :meth:`Redactor.redact` replaces every secret
value in a text with ``***``, and also the password of any URL written with one
(``https://user:***@host``), wherever the text came from: the config, a model or a tool.

Streamed text (a model's output, chunk by chunk) is redacted with
:meth:`Redactor.stream`, which holds back the end of a chunk while it may be the start of a
secret, so a secret split over two chunks is still masked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = [
    "MASK",
    "MIN_EXPANDED_SECRET_LENGTH",
    "Redactor",
    "StreamRedactor",
    "is_secret_key",
    "redact_url_passwords",
    "redact_value",
]

MASK = "***"
"""What a secret value is replaced with."""

MIN_EXPANDED_SECRET_LENGTH = 4
"""Environment values shorter than this are not recorded as secrets: masking ``"1"`` or
``"on"`` everywhere would garble transcripts, and no credential is that short. Values under
credential-like keys are secret whatever their length."""

_SECRET_KEY = re.compile(
    r"(?:^|[_\-.])(?:api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key|token|password|"
    r"passwd|passphrase|secret|credentials?|auth)(?:$|[_\-.])",
    re.IGNORECASE,
)


def is_secret_key(key: object) -> bool:
    """Whether a mapping key names a credential (``api_key``, ``OPENAI_API_KEY``, ``token``,
    ``client_secret``, ``password``...). ``max_tokens`` is not one.

    CamelCase keys are split first (``apiKey`` is ``api_key``).
    """
    if not isinstance(key, str):
        return False
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key)
    return _SECRET_KEY.search(snake) is not None


_URL_PASSWORD = re.compile(r"(://[^\s/:@]*:)[^\s/@]+@")
_MAX_URL_HELD = 256  # longest "://user:password" held back while it streams
_URL_IN_PROGRESS = re.compile(rf"://[^\s/@]{{0,{_MAX_URL_HELD}}}\Z|:/{{0,2}}\Z")


def redact_url_passwords(text: str) -> str:
    """Mask the password of every URL in ``text``: ``https://user:***@host/``."""
    if "://" not in text:
        return text
    return _URL_PASSWORD.sub(lambda found: f"{found.group(1)}{MASK}@", text)


def _url_held_from(text: str) -> int:
    """Where a URL whose password may still be streaming starts (``len(text)`` if none)."""
    found = _URL_IN_PROGRESS.search(text, max(0, len(text) - _MAX_URL_HELD - 3))
    return found.start() if found is not None else len(text)


class Redactor:
    """Masks a fixed set of secret values in texts, and passwords written in URLs.

    Args:
        secrets: The secret values (empty strings are ignored).
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = frozenset(secret for secret in secrets if secret)
        ordered = sorted(self.secrets, key=lambda secret: (-len(secret), secret))
        self._pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None
        self._prefixes = frozenset(
            secret[:size] for secret in self.secrets for size in range(1, len(secret))
        )
        self._first_chars = frozenset(secret[0] for secret in self.secrets)
        self._longest = max((len(secret) for secret in self.secrets), default=0)

    def redact(self, text: str) -> str:
        """Return ``text`` with every secret value replaced by ``***`` (longest first).

        The password of every URL is masked too.
        """
        if not text:
            return text
        if self._pattern is not None:
            text = self._pattern.sub(MASK, text)
        return redact_url_passwords(text)

    def __call__(self, text: str) -> str:
        """Same as :meth:`redact`, so a redactor is a ``Callable[[str], str]``."""
        return self.redact(text)

    def contains_secret(self, value: object) -> bool:
        """Whether ``value`` is a string holding a secret value."""
        return (
            isinstance(value, str)
            and self._pattern is not None
            and self._pattern.search(value) is not None
        )

    def stream(self) -> StreamRedactor:
        """A redactor for one stream of text chunks (see :class:`StreamRedactor`)."""
        return StreamRedactor(self)

    def _held_from(self, text: str, start: int) -> int:
        """The first offset >= ``start`` from which ``text`` may be the start of a secret."""
        for offset in range(max(start, len(text) - self._longest + 1), len(text)):
            if text[offset] in self._first_chars and text[offset:] in self._prefixes:
                return offset
        return len(text)


class StreamRedactor:
    """Redacts a text that arrives in chunks: a secret split across chunks is still masked.

    :meth:`feed` returns the redacted text that is safe to show now and holds back the end
    of the text while it may be the start of a secret; :meth:`flush` returns what is held
    (redacted) when the stream ends or pauses. The held text is at most one character shorter
    than the longest secret (or than a URL's ``://user:password`` part, up to 256
    characters). The concatenated output equals :meth:`Redactor.redact` of the whole text.

    Args:
        redactor: The secrets to mask.
    """

    def __init__(self, redactor: Redactor) -> None:
        self._redactor = redactor
        self._held = ""

    def feed(self, text: str) -> str:
        """Add ``text``; return the redacted text that can be shown now."""
        redactor = self._redactor
        pattern = redactor._pattern
        buffer = self._held + text
        url_hold = _url_held_from(buffer)
        # Text before ``hold`` is settled: no secret starting there can still grow, and no URL
        # password is still arriving. A secret reaching past ``hold`` settles up to its end.
        hold = min(redactor._held_from(buffer, 0), url_hold)
        pieces: list[str] = []
        shown = 0
        for found in pattern.finditer(buffer) if pattern is not None else ():
            if found.start() >= hold:
                break
            pieces += (buffer[shown : found.start()], MASK)
            shown = found.end()
            if shown > hold:
                hold = redactor._held_from(buffer, shown)
                if url_hold >= shown:
                    hold = min(hold, url_hold)
        pieces.append(buffer[shown:hold])
        self._held = buffer[hold:]
        return redact_url_passwords("".join(pieces))

    def flush(self) -> str:
        """Return the held text, redacted, and start afresh."""
        held, self._held = self._held, ""
        return self._redactor.redact(held) if held else ""


def redact_value(value: Any, redactor: Redactor, *, secret: bool = False) -> Any:
    """Return a copy of a JSON-ready ``value`` with secrets masked.

    Strings have secret values replaced; every value under a credential-like key (or anything
    when ``secret`` is true) becomes ``***`` as a whole.
    """
    if isinstance(value, dict):
        return {
            key: redact_value(item, redactor, secret=secret or is_secret_key(key))
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact_value(item, redactor, secret=secret) for item in value]
    if secret and value is not None:
        return MASK
    if isinstance(value, str):
        return redactor.redact(value)
    return value

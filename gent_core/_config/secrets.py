"""Secrets of a configuration: which values are credentials, and how they are masked.

A **credential** is a value written under a key that names one (``api_key``, ``token``,
``password``, ``secret``, ``Authorization``..., case-insensitive: :func:`is_secret_key`),
anywhere in the config (an MCP server's ``env: {API_TOKEN: ...}`` included), or a ``${VAR}``
expansion whose variable name names one (``${OPENAI_API_KEY}``). The password of a URL written
``scheme://user:password@host`` is masked wherever it appears. Nothing else is secret: a model
name, or ``${OPENAI_MODEL}`` under ``model:``, is shown as it is.

Two ways of masking, one rule each:

* **The configuration** (:func:`redact_value`: ``redacted_dict()``, transcript headers, reprs,
  error messages quoting a value) shows every credential as ``***`` as a whole, whatever its
  length.
* **Free text** (:meth:`Redactor.redact`: model output, tool results, errors, logs) has a
  credential masked where it appears only when it is at least
  :data:`MIN_TEXT_SECRET_LENGTH` characters long; a shorter one (``none``, ``x``, ``local``)
  is a placeholder, and searching for it would garble ordinary words. URL passwords are
  masked in free text too.

Redaction applies to string *values*; it never changes a mapping key or the structure of data,
and never the user's own text (the task, the answer: see
:func:`gent_core.records.redact_record`).

Streamed text (a model's output, chunk by chunk) is redacted with :meth:`Redactor.stream`,
which holds back the end of a chunk while it may be the start of a secret, so a secret split
over two chunks is still masked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

__all__ = [
    "MASK",
    "MIN_TEXT_SECRET_LENGTH",
    "PLACEHOLDERS",
    "Redactor",
    "StreamRedactor",
    "credential_values",
    "is_placeholder",
    "is_secret_key",
    "redact_url_passwords",
    "redact_value",
]

MASK = "***"
"""What a secret value is replaced with."""

MIN_TEXT_SECRET_LENGTH = 8
"""Credentials at least this long are masked wherever they appear in free text; shorter ones
(``none``, ``x``, ``local``, ``EMPTY``) are placeholders, masked only where the configuration is
shown: searching text for them would rewrite ordinary words."""

PLACEHOLDERS = frozenset(
    {
        "none",
        "null",
        "nil",
        "empty",
        "local",
        "localhost",
        "dummy",
        "fake",
        "test",
        "unused",
        "ignored",
        "nokey",
        "noauth",
        "na",
        "key",
        "apikey",
        "token",
        "secret",
        "sk",
        "ollama",
        "lmstudio",
        "vllm",
        "changeme",
    }
)
"""Short credential values that are obviously placeholders (compared lower-case, without
``-``, ``_``, ``.``, ``/`` and spaces; a value of one repeated character such as ``x`` or
``xxx`` is one too): no warning is logged for them (see :func:`is_placeholder`)."""

_SECRET_KEY = re.compile(
    r"(?:^|[_\-.])(?:api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key|token|password|"
    r"passwd|passphrase|secret|credentials?|auth|authorization|cookie)(?:$|[_\-.])",
    re.IGNORECASE,
)
_PLACEHOLDER_PUNCTUATION = re.compile(r"[\s\-_./]")


def is_secret_key(key: object) -> bool:
    """Whether a mapping key (or a variable name) names a credential (``api_key``,
    ``OPENAI_API_KEY``, ``token``, ``client_secret``, ``password``, ``Authorization``...).
    ``max_tokens`` is not one.

    CamelCase keys are split first (``apiKey`` is ``api_key``).
    """
    if not isinstance(key, str):
        return False
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key)
    return _SECRET_KEY.search(snake) is not None


def is_placeholder(value: str) -> bool:
    """Whether a credential value is an obvious placeholder (``none``, ``x``, ``EMPTY``,
    ``no-key``, ``dummy``...: :data:`PLACEHOLDERS`), not a real credential.
    """
    plain = _PLACEHOLDER_PUNCTUATION.sub("", value.lower())
    return len(set(plain)) <= 1 or plain in PLACEHOLDERS


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
    """Masks a configuration's credentials: in free text, and in the configuration itself.

    Args:
        secrets: The credential values (empty strings are ignored).

    Attributes:
        secrets: Every credential value: masked as a whole where the configuration is shown
            (:func:`redact_value`, :meth:`is_secret_value`).
        text_secrets: The credentials of at least :data:`MIN_TEXT_SECRET_LENGTH` characters:
            masked wherever they appear in free text (:meth:`redact`).
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = frozenset(secret for secret in secrets if secret)
        self.text_secrets = frozenset(
            secret for secret in self.secrets if len(secret) >= MIN_TEXT_SECRET_LENGTH
        )
        ordered = sorted(self.text_secrets, key=lambda secret: (-len(secret), secret))
        self._pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None
        self._prefixes = frozenset(
            secret[:size] for secret in self.text_secrets for size in range(1, len(secret))
        )
        self._first_chars = frozenset(secret[0] for secret in self.text_secrets)
        self._longest = max((len(secret) for secret in self.text_secrets), default=0)

    def redact(self, text: str) -> str:
        """Return free text with every credential of at least :data:`MIN_TEXT_SECRET_LENGTH`
        characters replaced by ``***`` (longest first), and the password of every URL.

        Shorter credentials are left alone: they are placeholders (``none``, ``local``), and
        masking them inside ordinary words would rewrite the text.
        """
        if not text:
            return text
        if self._pattern is not None:
            text = self._pattern.sub(MASK, text)
        return redact_url_passwords(text)

    def __call__(self, text: str) -> str:
        """Same as :meth:`redact`, so a redactor is a ``Callable[[str], str]``."""
        return self.redact(text)

    def is_secret_value(self, value: object) -> bool:
        """Whether ``value``, a value of the configuration, must not be shown: a string that is
        a credential (whatever its length) or that holds one :meth:`redact` would mask.
        """
        if not isinstance(value, str):
            return False
        return value in self.secrets or self.redact(value) != value

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


def credential_values(value: Any, *, secret: bool = False) -> Iterator[str]:
    """The non-empty strings under credential-like keys in JSON-ready ``value`` (all of its
    strings when ``secret`` is true).
    """
    if isinstance(value, dict):
        for key, item in value.items():
            yield from credential_values(item, secret=secret or is_secret_key(key))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from credential_values(item, secret=secret)
    elif secret and isinstance(value, str) and value:
        yield value


def redact_value(value: Any, redactor: Redactor, *, secret: bool = False) -> Any:
    """Return a copy of a JSON-ready configuration ``value`` as gent shows it.

    Every value under a credential-like key (anything when ``secret`` is true), and every
    string that is a credential, becomes ``***`` as a whole; other strings are redacted as
    free text (:meth:`Redactor.redact`: long credentials inside them, URL passwords). Mapping
    keys and the structure are kept as they are.
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
        return MASK if value in redactor.secrets else redactor.redact(value)
    return value

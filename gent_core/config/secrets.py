"""Secrets of a configuration: which values are secret and how they are masked.

A value is secret when it came from the environment (``${VAR}`` expansion) or when it is
written under a key whose name looks like a credential (``api_key``, ``token``,
``password``, ``secret``..., case-insensitive). :func:`redact` replaces every secret value in
a text with ``***``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = [
    "MASK",
    "MIN_EXPANDED_SECRET_LENGTH",
    "Redactor",
    "is_secret_key",
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


class Redactor:
    """Masks a fixed set of secret values in texts.

    Args:
        secrets: The secret values (empty strings are ignored).
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = frozenset(secret for secret in secrets if secret)
        ordered = sorted(self.secrets, key=lambda secret: (-len(secret), secret))
        self._pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None

    def redact(self, text: str) -> str:
        """Return ``text`` with every secret value replaced by ``***`` (longest first)."""
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(MASK, text)

    def contains_secret(self, value: object) -> bool:
        """Whether ``value`` is a string holding a secret value."""
        return (
            isinstance(value, str)
            and self._pattern is not None
            and self._pattern.search(value) is not None
        )


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

"""Clear :class:`~gent_core.errors.ModelError` messages for HTTP failures; secrets redacted."""

from __future__ import annotations

import json
from typing import Any

from gent_core.cliframe import Redactor
from gent_core.errors import Location, ModelError

__all__ = ["RETRY_STATUSES", "redact", "server_message", "status_error"]

RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
"""Statuses worth retrying (rate limits, timeouts, server errors); other 5xx are retried too."""

_LOCATION = Location(plugin="openai")
_MAX_MESSAGE = 500


def redact(text: str, secret: str | None) -> str:
    """Return ``text`` with the API key masked as gent masks credentials in free text
    (:meth:`~gent_core.cliframe.Redactor.redact`: a key of 8 characters or more, and URL
    passwords; a shorter key such as ``none`` is a placeholder, never searched for).
    """
    return Redactor([secret] if secret else ()).redact(text)


def server_message(body: bytes | str) -> str:
    """The error message in a response body (``{"error": {"message": ...}}`` and similar),
    or the start of the body.
    """
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    try:
        data: Any = json.loads(text)
    except ValueError:
        return text.strip()[:_MAX_MESSAGE]
    if isinstance(data, dict):
        error = data.get("error", data.get("detail", data.get("message")))
        if isinstance(error, dict):
            error = error.get("message", error)
        if error is not None:
            return (error if isinstance(error, str) else json.dumps(error))[:_MAX_MESSAGE]
    return text.strip()[:_MAX_MESSAGE]


def is_model_error(status: int, message: str) -> bool:
    """Whether a 400/404 response says the model name is unknown."""
    lowered = message.lower()
    return (
        status in (400, 404)
        and "model" in lowered
        and ("not found" in lowered or "does not exist" in lowered or "unknown" in lowered)
    )


def status_error(
    status: int,
    message: str,
    *,
    url: str,
    model: str,
    attempts: int,
    models: list[str] | None,
    secret: str | None,
) -> ModelError:
    """Build the error for a failed response.

    Args:
        status: The HTTP status.
        message: The server's error message.
        url: The requested URL.
        model: The model name sent.
        attempts: How many attempts were made.
        models: The server's model names (for 404 / unknown-model errors), if known.
        secret: The API key, removed from every text.
    """
    said = f": {message}" if message else ""
    hint: str | None = None
    if status in (401, 403):
        text = f"authentication failed: check OPENAI_API_KEY (HTTP {status} from {url}{said})"
    elif status == 404 or is_model_error(status, message):
        if models is not None and model not in models:
            listed = ", ".join(models[:20]) or "(none)"
            text = f"model {model!r} not found at {url} (HTTP {status}{said})"
            hint = f"Models this server offers: {listed}."
        elif status == 404 and models is None:
            text = f"not found: {url} (HTTP 404{said})"
            hint = "Check the base URL (it usually ends with /v1) and the model name."
        else:
            text = f"request rejected by {url} (HTTP {status}{said})"
    elif status == 429:
        text = f"rate limited by {url} (HTTP 429) after {attempts} attempt(s){said}"
    elif status >= 500:
        text = f"server error from {url} (HTTP {status}) after {attempts} attempt(s){said}"
    else:
        text = f"request rejected by {url} (HTTP {status}{said})"
    return ModelError(
        redact(text, secret), location=_LOCATION, hint=redact(hint, secret) if hint else None
    )

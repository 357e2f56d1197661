"""Which server answers the API, for the one thing servers disagree on here: the grammar.

The OpenAI API has no field for a grammar; the open servers each added their own:

========== ===================================== ===========================================
kind       told by (``GET /models``, owned_by)   grammar field
========== ===================================== ===========================================
llamacpp   ``llamacpp`` (llama.cpp's server)     ``grammar`` (GBNF)
vllm       ``vllm``                              ``structured_outputs: {grammar: ...}``
                                                 (vLLM 0.10.2 and later; ``guided_grammar``,
                                                 the older field, was removed in 0.12)
sglang     ``sglang``                            ``ebnf`` (GBNF is the EBNF xgrammar reads)
openai     anything else (OpenAI, Ollama,        none
           llama-cpp-python's ``me``...)
========== ===================================== ===========================================

llama-cpp-python's server takes a ``grammar`` too, but does not say who it is (``owned_by:
me``): name it with the ``server: llamacpp`` option, or force ``grammar: true``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from gent_openai.options import OpenAIOptions, ServerKind

if TYPE_CHECKING:
    import httpx

__all__ = [
    "GRAMMAR_FIELDS",
    "ask_kind",
    "ask_kind_now",
    "grammar_fields",
    "kind_from_models",
    "kind_from_response",
]

logger = logging.getLogger("gent.openai")

GRAMMAR_FIELDS: dict[ServerKind, str] = {
    "llamacpp": "grammar",
    "vllm": "structured_outputs.grammar",
    "sglang": "ebnf",
}
"""The field each server kind that takes a grammar reads it from (dotted: nested)."""


def kind_from_models(data: Any) -> ServerKind:
    """The server kind a ``GET /models`` response names (the first entry whose ``owned_by``
    is a known kind), ``"openai"`` when none does.
    """
    entries = data.get("data") if isinstance(data, dict) else None
    for entry in entries if isinstance(entries, list) else ():
        owner = entry.get("owned_by") if isinstance(entry, dict) else None
        if isinstance(owner, str) and owner.lower() in GRAMMAR_FIELDS:
            kind: ServerKind = owner.lower()  # type: ignore[assignment]
            return kind
    return "openai"


def grammar_fields(kind: ServerKind | None, grammar: str) -> dict[str, Any]:
    """The body fields that carry ``grammar`` to a server of ``kind`` (an unknown kind, or
    one without a field, gets llama.cpp's ``grammar``: what ``grammar: true`` asked for).
    """
    field = GRAMMAR_FIELDS.get(kind or "llamacpp", "grammar")
    outer, _, inner = field.partition(".")
    return {outer: {inner: grammar}} if inner else {outer: grammar}


def kind_from_response(response: httpx.Response) -> ServerKind | None:
    """The server kind a ``GET /models`` response says; ``"openai"`` for a server without a
    listing (401, 403, 404, 405: no known grammar field); ``None`` when it could not say (ask
    again later).
    """
    if response.status_code == 200:
        try:
            return kind_from_models(response.json())
        except ValueError:
            return None
    return "openai" if response.status_code in (401, 403, 404, 405) else None


async def ask_kind(client: httpx.AsyncClient, root: str) -> ServerKind | None:
    """Ask the server at ``root`` (``client``'s base URL) which it is (:func:`kind_from_response`;
    ``None`` when it cannot be reached).
    """
    import httpx

    try:
        return kind_from_response(await client.get("models"))
    except httpx.HTTPError as error:
        logger.info("cannot ask %s/models which server it is: %s", root, error)
        return None


def ask_kind_now(options: OpenAIOptions) -> ServerKind | None:
    """:func:`ask_kind` from synchronous code (``gent describe``), waiting at most the connect
    timeout.
    """
    import httpx

    headers = {"Authorization": f"Bearer {key}"} if (key := options.secret()) else {}
    try:
        with httpx.Client(
            headers={**headers, **options.headers}, timeout=options.connect_timeout
        ) as client:
            return kind_from_response(client.get(f"{options.root}/models"))
    except httpx.HTTPError as error:
        logger.info("cannot ask %s/models which server it is: %s", options.root, error)
        return None

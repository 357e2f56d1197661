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

from typing import Any

from gent_openai.options import ServerKind

__all__ = ["GRAMMAR_FIELDS", "grammar_fields", "kind_from_models"]

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

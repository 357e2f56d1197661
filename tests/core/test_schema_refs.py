"""Local ``$ref`` resolution shared by every schema walker."""

from __future__ import annotations

import pytest

from gent_core._schema_refs import follow_refs, is_local_ref, resolve_pointer

ROOT = {
    "$defs": {"Item": {"type": "string"}, "Alias": {"$ref": "#/$defs/Item"}, "a/b": {"x": 1}},
    "prefixItems": [{"type": "integer"}],
    "loop": {"$ref": "#/loop"},
}


def test_pointer_with_escapes_and_list_indexes() -> None:
    assert resolve_pointer(ROOT, "#/$defs/Item") == {"type": "string"}
    assert resolve_pointer(ROOT, "#/$defs/a~1b") == {"x": 1}
    assert resolve_pointer(ROOT, "#/prefixItems/0") == {"type": "integer"}
    assert resolve_pointer(ROOT, "#") is ROOT
    with pytest.raises(LookupError):
        resolve_pointer(ROOT, "#/$defs/Missing")


def test_follow_refs_follows_chains_and_stops_on_cycles() -> None:
    assert follow_refs({"$ref": "#/$defs/Alias"}, ROOT) == {"type": "string"}
    assert follow_refs({"type": "integer"}, ROOT) == {"type": "integer"}
    assert follow_refs({"$ref": "#/$defs/Missing"}, ROOT) is None
    assert follow_refs({"$ref": "#/loop"}, ROOT) is None
    assert follow_refs("not a schema", ROOT) is None
    remote = {"$ref": "https://example.com/schema.json"}
    assert follow_refs(remote, ROOT) is remote  # not local: left as it is


def test_is_local_ref() -> None:
    assert is_local_ref("#/$defs/X")
    assert not is_local_ref("other.json#/x")
    assert not is_local_ref(None)

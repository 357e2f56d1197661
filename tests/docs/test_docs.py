"""The generated reference pages are current (the code blocks are checked by test_doc_blocks)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import gen_reference  # noqa: E402


@pytest.mark.parametrize("page", sorted(gen_reference.PAGES))
def test_generated_reference_is_current(page: str) -> None:
    committed = (ROOT / "docs" / "reference" / page).read_text()
    assert committed == gen_reference.PAGES[page](), (
        f"docs/reference/{page} is stale: run python tools/gen_reference.py {page}"
    )

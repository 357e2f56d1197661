"""Fixtures of the docs tests: the instruct model behind a real OpenAI-compatible server, for
the shell blocks marked ``{test="openai"}`` (``tools/instruct_model.py``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from instruct_model import served  # type: ignore[import-not-found,unused-ignore]


@pytest.fixture(scope="session")
def instruct_server() -> Iterator[Any]:
    """SmolLM2-135M-Instruct behind llama.cpp's OpenAI-compatible server, with its own chat
    template, for the session: what a ``{test="openai"}`` block's ``OPENAI_BASE_URL`` names.
    Greedy by the server's default (a request that gives no temperature, as the page's config
    file sends none), so the tiny model's run is the same every time."""
    with served(parallel=1, temperature=0.0) as server:
        yield server

"""Fixtures of the docs tests: the instruct model behind a real OpenAI-compatible server, for
the shell blocks marked ``{test="openai"}`` (``tools/instruct_model.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from instruct_model import instruct_server_fixture  # type: ignore[import-not-found,unused-ignore]

instruct_server = instruct_server_fixture()
"""SmolLM2-135M-Instruct behind llama.cpp's OpenAI-compatible server, with its own chat
template, for the session: what a ``{test="openai"}`` block's ``OPENAI_BASE_URL`` names."""

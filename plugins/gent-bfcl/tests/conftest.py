"""Fixtures: the instruct model SmolLM2-135M-Instruct behind a real llama.cpp server with its
own chat template, for the end-to-end test of native function calling: the repository's
``instruct_server`` fixture (``tools/instruct_model.py``, downloaded on first use), the same
gent-openai's tests use."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
from instruct_model import instruct_server_fixture  # type: ignore[import-not-found,unused-ignore]

instruct_server = instruct_server_fixture()
"""SmolLM2-135M-Instruct behind llama.cpp's OpenAI-compatible server for the session."""

"""Fixtures: the instruct model SmolLM2-135M-Instruct behind a real llama.cpp server with its
own chat template (``tools/instruct_model.py``, downloaded on first use), for the end-to-end
test of native function calling (duplicated from gent-openai's fixtures on purpose: plugins'
tests never import each other)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

INSTRUCT_MODEL_TOOL = Path(__file__).resolve().parents[3] / "tools" / "instruct_model.py"
"""The instruct-model fixture of the repository (a development tool, not a package)."""


def instruct_model_tool() -> ModuleType:
    """``tools/instruct_model.py``, loaded from this repository by its fixed path."""
    spec = importlib.util.spec_from_file_location("gent_instruct_model", INSTRUCT_MODEL_TOOL)
    assert spec is not None and spec.loader is not None, INSTRUCT_MODEL_TOOL
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while defining
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def instruct_server() -> Iterator[Any]:
    """SmolLM2-135M-Instruct behind llama.cpp's OpenAI-compatible server for the session: an
    ``InstructServer`` (``url``, ``model``, ``pid``, ``binding``)."""
    tool = instruct_model_tool()
    with tool.served(parallel=1, threads=1) as server:
        yield server

"""The CPU threads of the ``llamacpp`` model: the default for injected core counts (no clock,
no load), the options that override it, and what ``describe`` shows once loaded."""

from __future__ import annotations

import asyncio
import os

import pytest
from gent_llamacpp.model import LlamaCppModel
from gent_llamacpp.threads import Threads, available_cores, default_threads, resolve_threads

from gent_core.errors import ConfigError


@pytest.mark.parametrize("cores", [1, 2, 4, 8, 64])
def test_the_default_is_every_core_for_the_prompt_and_for_generation(cores: int) -> None:
    assert default_threads(cores) == Threads(generation=cores, batch=cores)


def test_set_options_override_the_default() -> None:
    assert resolve_threads(None, None, cores=8) == Threads(8, 8)
    assert resolve_threads(3, None, cores=8) == Threads(3, 3)  # n_threads alone sets both
    assert resolve_threads(3, 5, cores=8) == Threads(3, 5)
    assert resolve_threads(None, 5, cores=8) == Threads(8, 5)
    assert resolve_threads(4, 6, cores=2) == Threads(4, 6)  # even past the cores


def test_the_cores_are_those_the_process_may_run_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 3, 5}, raising=False)
    assert available_cores() == 3
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)  # macOS and Windows have none
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert available_cores() == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert available_cores() == 1


def test_threads_describe_themselves() -> None:
    assert Threads(2, 2).describe() == "2"
    assert Threads(1, 2).describe() == "1, prompt 2"


def test_thread_options_are_validated() -> None:
    with pytest.raises(ConfigError, match="n_threads_batch"):
        LlamaCppModel(n_threads_batch=0)
    with pytest.raises(ConfigError, match="n_threads"):
        LlamaCppModel(n_threads=0)
    model = LlamaCppModel(n_threads=1, n_threads_batch=2)
    assert (model.options.n_threads, model.options.n_threads_batch) == (1, 2)
    assert model.threads is None  # chosen at load
    assert "threads" not in model.describe()


@pytest.mark.slow
@pytest.mark.model
def test_the_loaded_model_runs_on_the_threads_the_options_set() -> None:
    model = LlamaCppModel(n_threads=1, n_threads_batch=2, n_ctx=512)
    asyncio.run(model.load())
    try:
        assert model.threads == Threads(generation=1, batch=2)
        assert model.describe().endswith("(threads: 1, prompt 2)")
    finally:
        asyncio.run(model.aclose())


@pytest.mark.slow
@pytest.mark.model
def test_unset_threads_are_every_core_the_process_may_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gent_llamacpp.model as model_module

    monkeypatch.setattr(model_module, "available_cores", lambda: 3)
    model = LlamaCppModel(n_ctx=512, n_threads_batch=2)
    asyncio.run(model.load())
    try:
        assert model.threads == Threads(generation=3, batch=2)
        assert model.describe().endswith("(threads: 3, prompt 2)")
    finally:
        asyncio.run(model.aclose())

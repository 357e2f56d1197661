"""The CPU threads of the ``llamacpp`` model: the default chosen from injected cores and loads
(no clock, no model), the options that override it, and what ``describe`` shows."""

from __future__ import annotations

import asyncio
import os

import pytest
from gent_llamacpp.model import LlamaCppModel
from gent_llamacpp.threads import (
    Threads,
    available_cores,
    choose_threads,
    current_load,
    resolve_threads,
)

from gent_core.errors import ConfigError


@pytest.mark.parametrize("cores", [1, 2, 4, 8, 64])
def test_an_idle_machine_gets_every_core_for_both(cores: int) -> None:
    assert choose_threads(cores, 0.0) == Threads(generation=cores, batch=cores)
    assert choose_threads(cores, None) == Threads(generation=cores, batch=cores)


@pytest.mark.parametrize("cores", [1, 2, 4, 8, 64])
@pytest.mark.parametrize("load", [0.0, 0.4, 1.0, 1.6, 2.5, 5.0, 13.0, 100.0])
def test_the_choice_stays_within_one_and_the_cores(cores: int, load: float) -> None:
    threads = choose_threads(cores, load)
    assert 1 <= threads.generation <= cores
    assert 1 <= threads.batch <= cores


@pytest.mark.parametrize("cores", [2, 4, 8])
def test_more_load_never_means_more_threads(cores: int) -> None:
    loads = [step / 4 for step in range(0, 4 * (cores + 4))]
    chosen = [choose_threads(cores, load) for load in loads]
    for before, after in zip(chosen, chosen[1:]):
        assert after.generation <= before.generation
        assert after.batch <= before.batch


def test_set_options_override_the_choice() -> None:
    assert resolve_threads(3, None, cores=8, load=0.0) == Threads(3, 3)  # sets both
    assert resolve_threads(3, 5, cores=8, load=0.0) == Threads(3, 5)
    assert resolve_threads(3, 5, cores=2, load=50.0) == Threads(3, 5)  # even past the cores
    auto = choose_threads(8, 6.0)
    assert resolve_threads(None, 5, cores=8, load=6.0) == Threads(auto.generation, 5)
    assert resolve_threads(None, None, cores=8, load=6.0) == auto


def test_the_machine_is_read_from_the_process() -> None:
    cores = available_cores()
    assert 1 <= cores <= (os.cpu_count() or 1)
    if hasattr(os, "sched_getaffinity"):
        assert cores == len(os.sched_getaffinity(0))
    if hasattr(os, "getloadavg"):
        load = current_load()
        assert load is not None and load >= 0.0


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
def test_the_loaded_model_runs_on_the_threads_the_options_set() -> None:
    model = LlamaCppModel(n_threads=1, n_threads_batch=2, n_ctx=512)
    asyncio.run(model.load())
    try:
        assert model.threads == Threads(generation=1, batch=2)
        assert model.describe().endswith("(threads: 1, prompt 2)")
    finally:
        asyncio.run(model.aclose())


@pytest.mark.slow
def test_unset_threads_are_chosen_from_the_cores_and_the_load(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gent_llamacpp.model as model_module

    seen: list[int] = []

    def load_of_a_busy_machine() -> float:
        seen.append(1)
        return 7.0

    monkeypatch.setattr(model_module, "current_load", load_of_a_busy_machine)
    model = LlamaCppModel(n_ctx=512)
    asyncio.run(model.load())
    try:
        assert seen == [1]  # read once, at load
        assert model.threads == choose_threads(available_cores(), 7.0)
        assert model.describe().endswith(f"(threads: {model.threads.describe()})")
    finally:
        asyncio.run(model.aclose())

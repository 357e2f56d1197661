"""Slow tests that run a real model carry the ``model`` marker (docs/architecture.md, "Tests
count, they do not time"): ``dev.py test`` runs the other slow tests two at a time, and a model
must not share the cores with another test. The repository's conftest.py refuses a ``slow``
test without ``model`` in a module that names a model back end or server; this runs a
throwaway session with that conftest to show it does, and names the test.

The throwaway session runs in this process (``pytester``: pytest's own in-process runner, which
puts back ``sys.modules`` and ``sys.path`` afterwards); what a conftest refuses at collection
does not depend on a fresh interpreter, and a child pytest costs seconds to start.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]

PYPROJECT = """\
[tool.pytest.ini_options]
addopts = "--strict-markers"
markers = ["slow: slow", "model: runs a model"]
"""

MARKED = """\
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.model]


def test_the_bundled_model_answers():
    pass
"""

UNMARKED = """\
import pytest


@pytest.mark.slow
def test_llama_server_answers():  # a llama.cpp server, slow but not marked model
    pass


def test_fast_one():  # not slow: runs in the fast suite, no marker needed
    pass
"""

NO_MODEL = """\
import pytest


@pytest.mark.slow
def test_a_fresh_virtualenv():
    pass
"""


@pytest.fixture
def keep_hypothesis_profile() -> Iterator[None]:
    """The copied conftest loads its hypothesis profile at import: give this process's back
    (``--hypothesis-profile`` may have chosen another) when the throwaway session is over."""
    profile = settings.get_current_profile_name()
    yield
    settings.load_profile(profile)


def collect(pytester: pytest.Pytester) -> pytest.RunResult:
    return pytester.runpytest_inprocess("--collect-only", "-q", "-p", "no:cacheprovider")


@pytest.mark.usefixtures("keep_hypothesis_profile")
def test_a_slow_test_that_runs_a_model_without_the_marker_is_refused(
    pytester: pytest.Pytester,
) -> None:
    tmp_path = pytester.path
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    (tmp_path / "test_marked.py").write_text(MARKED)
    (tmp_path / "test_no_model.py").write_text(NO_MODEL)
    accepted = collect(pytester)
    said = "\n".join(accepted.outlines + accepted.errlines)
    assert accepted.ret == 0, said
    (tmp_path / "test_unmarked.py").write_text(UNMARKED)
    refused = collect(pytester)
    assert refused.ret != 0
    said = "\n".join(refused.outlines + refused.errlines)
    (error,) = [line for line in said.splitlines() if "need @pytest.mark.model too" in line]
    assert error.endswith(": test_unmarked.py::test_llama_server_answers"), said


def test_the_marker_is_declared_where_dev_py_reads_it() -> None:
    sys.path.insert(0, str(ROOT))
    try:
        import dev
    finally:
        sys.path.remove(str(ROOT))
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert f'"{dev.MODEL_MARKER}: slow tests that run a real model' in pyproject

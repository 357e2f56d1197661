"""Slow tests that run a real model carry the ``model`` marker (docs/architecture.md, "Tests
count, they do not time"): ``dev.py test`` runs the other slow tests two at a time, and a model
must not share the cores with another test. The repository's conftest.py refuses a ``slow``
test without ``model`` in a module that names a model back end or server; this runs a
throwaway session with that conftest to show it does, and names the test.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def collect(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_slow_test_that_runs_a_model_without_the_marker_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    (tmp_path / "test_marked.py").write_text(MARKED)
    (tmp_path / "test_no_model.py").write_text(NO_MODEL)
    accepted = collect(tmp_path)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    (tmp_path / "test_unmarked.py").write_text(UNMARKED)
    refused = collect(tmp_path)
    assert refused.returncode != 0
    said = refused.stdout + refused.stderr
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

"""The docs cannot rot: generated references are current and Python examples run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import gen_reference  # noqa: E402

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# ```python blocks are complete programs and are run; ```py blocks are fragments, not run.
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("page", sorted(gen_reference.PAGES))
def test_generated_reference_is_current(page: str) -> None:
    committed = (ROOT / "docs" / "reference" / page).read_text()
    assert committed == gen_reference.PAGES[page](), (
        f"docs/reference/{page} is stale: run python tools/gen_reference.py"
    )


def _blocks() -> list[tuple[str, int, str]]:
    found = []
    for document in DOCUMENTS:
        text = document.read_text()
        for index, match in enumerate(PYTHON_BLOCK.finditer(text)):
            found.append((str(document.relative_to(ROOT)), index, match.group(1)))
    return found


@pytest.mark.parametrize(("document", "index", "code"), _blocks())
def test_python_examples_run(document: str, index: int, code: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert result.returncode == 0, f"{document} block {index} failed:\n{result.stderr}"

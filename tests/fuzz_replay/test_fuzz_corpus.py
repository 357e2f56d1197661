"""The fuzz targets' seed corpus, replayed without atheris (so on every Python, in CI).

Each file of ``fuzz/corpus/<target>/`` goes through that target's ``test_one_input``, which
checks the parser's documented contract (see ``fuzz/targets/``). A finding of the fuzzer is
kept there as a file, so it stays fixed.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from fuzz.targets import TARGETS

CORPUS = Path(__file__).resolve().parents[2] / "fuzz" / "corpus"
CASES = [
    pytest.param(target, path, id=f"{target}/{path.name[:16]}")
    for target in TARGETS
    for path in sorted((CORPUS / target).iterdir())
]


def test_every_target_has_a_seed_corpus() -> None:
    for target in TARGETS:
        assert len(list((CORPUS / target).iterdir())) >= 20, target


@pytest.mark.parametrize(("target", "path"), CASES)
def test_the_contract_holds_on_the_seed(target: str, path: Path) -> None:
    module = importlib.import_module(f"fuzz.targets.{target}")
    module.test_one_input(path.read_bytes())

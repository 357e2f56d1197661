"""The architecture checks share one parse of each file (:mod:`tests.architecture.sources`)
while they run, and free it when a test process moves on to other tests."""

from __future__ import annotations

import pytest

from tests.architecture import sources


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Forget the parsed files after the last architecture test of a run of them."""
    if nextitem is None or nextitem.path.parent != item.path.parent:
        sources.forget()

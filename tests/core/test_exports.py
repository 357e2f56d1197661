"""The lazy top-level exports of gent_core."""

from __future__ import annotations

import importlib

import pytest

import gent_core


def test_all_lists_every_lazy_export() -> None:
    assert sorted(gent_core.__all__) == sorted(["__version__", *gent_core._EXPORTS])


@pytest.mark.parametrize("name", sorted(gent_core._EXPORTS))
def test_every_export_resolves_to_its_module_attribute(name: str) -> None:
    module = importlib.import_module(gent_core._EXPORTS[name])
    assert getattr(gent_core, name) is getattr(module, name)


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        _ = gent_core.nope

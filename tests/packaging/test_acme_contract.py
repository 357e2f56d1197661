"""The throwaway third-party plugin of the acceptance test (``acme_plugin.py``) passes the
conformance kit in-process: the kit checks any plugin's components, not only gent's own."""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from typing import Any

from gent_core.formats import TextFormat
from gent_core.testing import ChainConformance, FormatConformance
from gent_core.toolchain import ToolChain
from gent_core.tools.base import Tool
from tests.packaging.acme_plugin import SOURCE


def load_acme() -> Any:
    """The plugin module, built from its source (as the installed package would be)."""
    module = sys.modules.get("gent_acme_in_process")
    if module is None:
        module = types.ModuleType("gent_acme_in_process")
        sys.modules[module.__name__] = module
        exec(compile(SOURCE, "gent_acme/__init__.py", "exec"), module.__dict__)
    return module


class TestAcmeFormat(FormatConformance):
    """The throwaway format, with no grammar of its own."""

    def make_format(self) -> TextFormat:
        fmt: TextFormat = load_acme().BracketFormat()
        return fmt


class TestAcmeChain(ChainConformance):
    """The throwaway chain, with its own grammar."""

    def make_chain(self, tools: Sequence[Tool]) -> ToolChain:
        chain: ToolChain = load_acme().AcmeChain(tools)
        return chain

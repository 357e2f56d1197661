"""A plugin for the tests of the run history: it records every model request, presses
Ctrl-C or crashes from a tool, and supplies a model configured with a credential."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Mapping, Sequence
from typing import Any

from gent_core import hookimpl
from gent_core.context import ExecutionContext
from gent_core.model import Model, ModelRequest
from gent_core.testing import ScriptedModel
from gent_core.tools import tool


@tool
async def ctrl_c() -> str:
    """Press Ctrl-C while the tool runs (the run is cancelled: stop reason ``cancelled``)."""
    os.kill(os.getpid(), signal.SIGINT)
    await asyncio.sleep(60)
    return "not reached"


@tool
async def crash() -> str:
    """End the command abruptly, as a killed process would: the run logs no end."""
    raise KeyboardInterrupt


class Spy:
    """Records the messages of every model request; supplies ``ctrl_c``, ``crash``, ``keyed``."""

    def __init__(self) -> None:
        self.requests: list[list[str]] = []
        self.outputs: list[str] = []
        """What the ``keyed`` model writes (given here, not in the config, so any text can)."""

    def _keyed(self, api_key: str) -> Model:
        """A scripted model configured with a credential (masked by the config's redactor)."""
        del api_key
        return ScriptedModel(list(self.outputs))

    @hookimpl
    def gent_before_model_call(self, request: ModelRequest, context: ExecutionContext) -> None:
        del context
        self.requests.append([f"{message.role}: {message.text}" for message in request.messages])

    @hookimpl
    def gent_register_tools(self) -> Sequence[Any]:
        return [ctrl_c, crash]

    @hookimpl
    def gent_register_models(self) -> Mapping[str, Any]:
        return {"keyed": self._keyed}

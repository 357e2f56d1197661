"""A model for tests of ``gent chat``: it answers from the conversation it is sent.

The ``recall`` model reads the last user message of each request:

* ``compute EXPR``: it calls the calculator on EXPR (one step), then answers with the tool's
  observation once it comes back;
* ``hang``: it writes the file ``started`` in the working directory and streams nothing for
  hours (a turn to cancel with Ctrl-C);
* anything else: it answers ``heard <the message>; before: <the last answer of an earlier
  turn, or nothing>``, so a test sees whether the conversation carried across turns.

It is "installed" for a subprocess by :func:`install_chat_plugin`.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path

from gent_core import hookimpl
from gent_core.messages import Message
from gent_core.model import Model, ModelChunk, ModelIdentity, ModelRequest

REPOSITORY = Path(__file__).resolve().parents[2]
_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)


def _earlier_answer(messages: list[Message]) -> str:
    """The last answer given before the current turn (the model's earlier messages)."""
    for message in reversed(messages[:-1]):
        if message.role == "assistant":
            found = _ANSWER.search(message.text)
            if found:
                return found.group(1).strip()
    return "nothing"


class RecallModel(Model):
    """Answers from the conversation (see the module docstring)."""

    def __init__(self, directory: str = ".") -> None:
        self.directory = Path(directory)

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        messages = list(request.messages)
        last = messages[-1].text.strip()
        previous = messages[-2] if len(messages) > 1 else None
        if last == "hang":
            (self.directory / "started").write_text("started\n")
            await asyncio.sleep(3600)
        if previous is not None and previous.role == "assistant" and "<action>" in previous.text:
            text = f"<answer>tool said: {' '.join(last.split())}</answer>"
        elif last.startswith("compute "):
            call = {"tool": "calculator", "args": {"expression": last.removeprefix("compute ")}}
            text = f"<action>{json.dumps(call)}</action>"
        else:
            text = f"<answer>heard {last}; before: {_earlier_answer(messages)}</answer>"
        yield ModelChunk(text)
        yield ModelChunk("", finish_reason="stop")

    def identity(self) -> ModelIdentity:
        return ModelIdentity(provider="test", name="recall", operation="chat")


@hookimpl
def gent_register_models() -> Mapping[str, Callable[..., Model]]:
    return {"recall": RecallModel}


def install_chat_plugin(directory: Path) -> dict[str, str]:
    """Make this plugin installed for a subprocess: return the environment variables that
    put a distribution declaring it (and the repository, for its module) on the path.
    """
    info = directory / "gent_chat_plugin-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gent-chat-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[gent]\nrecall = tests.cli.chat_plugin\n")
    return {"PYTHONPATH": f"{directory}:{REPOSITORY}"}

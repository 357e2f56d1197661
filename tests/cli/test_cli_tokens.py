"""``gent run``'s status line says "tokens not reported" when the back end reported no token
counts (they are unknown, not 0), and the counts when it did (issue 19, section 4).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path

import pytest

from gent_core import Model, ModelChunk, ModelRequest, hookimpl
from gent_core.testing import PluginSandbox, run_cli


class SilentModel(Model):
    """Answers without reporting any usage (as some servers do)."""

    def __init__(self, answer: str = "4") -> None:
        self.answer = answer

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        del request
        yield ModelChunk(f"<answer>{self.answer}</answer>", finish_reason="stop")


class SilentPlugin:
    @hookimpl
    def gent_register_models(self) -> Mapping[str, Callable[..., Model]]:
        return {"silent": SilentModel}


def _status_line(config: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    (tmp_path / "agent.yaml").write_text(config)
    assert run_cli(["run", str(tmp_path / "agent.yaml"), "What is 2+2?"]) == 0
    captured = capsys.readouterr()
    lines = [line for line in (captured.out + captured.err).splitlines() if "| steps " in line]
    assert len(lines) == 1, captured
    return lines[0]


def test_a_back_end_that_reports_no_tokens_says_not_reported(
    installed: PluginSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed.register(SilentPlugin(), "silent")
    line = _status_line("model: silent\ntools: []\n", tmp_path, capsys)
    assert "| tokens not reported |" in line
    assert "0 in" not in line


def test_a_back_end_that_reports_tokens_shows_the_counts(
    installed: PluginSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = json.dumps(["<answer>4</answer>"])
    line = _status_line(f"model: {{name: scripted, outputs: {outputs}}}\n", tmp_path, capsys)
    # the scripted model counts one token per word: the prompt's words in, one word out
    assert " in / 1 out |" in line
    assert "not reported" not in line

"""A whole agent run through the openai back end against a real llama.cpp server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gent_core.agent import Agent
from gent_core.config import parse_config
from gent_core.plugins import build_plugin_manager

CONFIG = """\
model:
  name: openai
  base_url: {base_url}
  model: gemma
  api: completions
  grammar: true
  temperature: 0.2
format: xml
toolchain: json
tools: [calculator]
max_steps: 4
"""


@pytest.mark.slow
def test_agent_runs_over_an_openai_compatible_server(llama_server: str, tmp_path: Path) -> None:
    loaded = parse_config(CONFIG.format(base_url=llama_server), source="agent.yaml")
    agent = Agent.from_config(loaded, plugin_manager=build_plugin_manager())
    transcript = tmp_path / "run.jsonl"
    result = agent.run_sync("What is 17 * 23?", transcript=transcript)
    assert result.stop_reason == "answer", result.message
    calls = [call for step in result.steps for call in step.calls]
    assert calls, "the model made no tool call"
    assert calls[0].tool == "calculator"
    assert calls[0].status == "success"
    first = result.steps[0]
    assert first.output.rstrip().endswith("</action>")  # stop sequence restored
    assert f"<calculator>\n{calls[0].output}\n</calculator>" in first.followup
    header = json.loads(transcript.read_text().splitlines()[0])
    assert header["config"]["model"]["name"] == "openai"


def test_completions_prompt_uses_the_agent_format_and_a_token_budget() -> None:
    from gent_json.chain import JSONToolChain
    from gent_openai.model import COMPLETIONS_MAX_TOKENS, OpenAIModel
    from gent_xml.format import XMLFormat

    from gent_core.messages import Message
    from gent_core.model import ModelRequest

    model = OpenAIModel(base_url="http://127.0.0.1:9/v1", model="m", api="completions")
    agent = Agent(model, XMLFormat(), JSONToolChain())
    request = ModelRequest(
        [Message.system(agent.system_prompt()), Message.user("q")],
        stop=["</action>"],
        structure=agent.structure(),
    )
    body = model.request_body(request, stream=True)
    assert "Example of the format:" in body["prompt"]
    assert "<task>\nq\n</task>" in body["prompt"]
    assert body["max_tokens"] == COMPLETIONS_MAX_TOKENS
    assert body["stop"] == ["</action>"]

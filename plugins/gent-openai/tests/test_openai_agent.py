"""A whole agent run through the openai back end against a real llama.cpp server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gent_core import Agent, build_plugin_manager, hookimpl, parse_config
from gent_core.context import ExecutionContext
from gent_core.messages import Message
from gent_core.model import ModelRequest

# Greedy decoding: the loop is under test, not the sampler's luck (at 0.2 the tiny model once
# wrote 1,442 tokens in one step and the next prompt no longer fit the server's context).
# max_tokens bounds a run-away step the same way.
CONFIG = """\
model:
  name: openai
  base_url: {base_url}
  model: gemma
  api: completions
  grammar: true
  temperature: 0
  max_tokens: 256
format: xml
toolchain: json
tools: [calculator]
max_steps: 4
"""


@pytest.mark.slow
@pytest.mark.model
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


class RequestRecorder:
    """Records the messages of every model call (a lifecycle-hook plugin)."""

    def __init__(self) -> None:
        self.requests: list[list[Message]] = []

    @hookimpl
    def gent_before_model_call(self, request: ModelRequest, context: ExecutionContext) -> None:
        self.requests.append(list(request.messages))


def chat_agent(base_url: str, tools: str, recorder: RequestRecorder) -> Agent:
    config = CONFIG.replace("api: completions", "api: chat").replace(
        "tools: [calculator]", f"tools: {tools}"
    )
    loaded = parse_config(config.format(base_url=base_url), source="agent.yaml")
    manager = build_plugin_manager()
    manager.register(recorder, name="recorder")
    return Agent.from_config(loaded, plugin_manager=manager)


@pytest.mark.slow
@pytest.mark.model
def test_agent_loop_over_the_chat_api_of_a_real_server(llama_server: str, tmp_path: Path) -> None:
    """Steps over ``api: chat`` (chat/completions, SSE, the agent's grammar, stop sequences)
    against the real llama.cpp server: every output is usable, the calls run, and each
    observation goes back to the model as the next message of the conversation."""
    recorder = RequestRecorder()
    agent = chat_agent(llama_server, "[calculator]", recorder)
    transcript = tmp_path / "run.jsonl"
    result = agent.run_sync("What is 17 * 23?", transcript=transcript)
    assert result.stop_reason in ("answer", "max_steps"), result.message
    assert [step.feedback for step in result.steps if step.outcome == "feedback"] == []
    first = result.steps[0]
    assert first.outcome == "action", first.output
    assert first.output.rstrip().endswith("</action>")  # stop sequence restored
    assert first.calls  # the grammar allows one call or several
    for call in first.calls:
        # the call ran; whether the tiny model's expression computes is the model's matter
        assert call.tool == "calculator" and call.status in ("success", "error")
        shown = call.output if call.status == "success" else "Error: "
        assert f"<calculator>\n{shown}" in first.followup
    assert len(recorder.requests) == len(result.steps) >= 2
    second = recorder.requests[1]  # the conversation the model saw on step 2
    assert [message.role for message in second[-2:]] == ["assistant", "user"]
    assert second[-2].text == first.output
    assert second[-1].text == first.followup
    records = [json.loads(line) for line in transcript.read_text().splitlines()]
    assert records[0]["config"]["model"]["api"] == "chat"
    assert records[-1]["type"] == "end"


@pytest.mark.slow
@pytest.mark.model
def test_agent_answers_over_the_chat_api_of_a_real_server(llama_server: str) -> None:
    recorder = RequestRecorder()
    result = chat_agent(llama_server, "[]", recorder).run_sync("Say hello to Ada.")
    assert result.stop_reason == "answer", result.message
    assert result.steps[-1].output.rstrip().endswith("</answer>")
    assert recorder.requests[0][0].role == "system"


def test_completions_prompt_uses_the_agent_format_and_a_token_budget() -> None:
    from gent_json.chain import JSONToolChain
    from gent_openai.model import OpenAIModel
    from gent_openai.options import DEFAULT_MAX_TOKENS
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
    assert body["max_tokens"] == DEFAULT_MAX_TOKENS
    assert body["stop"] == ["</action>"]

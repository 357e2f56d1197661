"""A server that never stops sending cannot fill the memory (issue 17): a line, an event or a
whole response longer than ``max_line_chars`` is a ModelError naming the option, and a stream
of well-formed events that never ends is stopped by the agent at ``limits.max_output_chars``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator

from openai_fake_server import FakeServer, Reply, chat_event

from gent_core import Agent, RunResult, build_plugin_manager, parse_config

CONFIG = """\
model:
  name: openai
  base_url: {base_url}
  model: model-a
  api_key: sk-test
  max_retries: 0
  max_line_chars: 100000
  stream: {stream}
tools: []
max_steps: 2
limits: {{max_output_chars: 50000}}
"""

BLOCK = 65_536
GIVE_UP = 2_000  # blocks of 64 KiB (125 MiB): a test that never stops reading fails, not hangs


def run(server: FakeServer, stream: bool = True) -> RunResult:
    config = CONFIG.format(base_url=server.base_url, stream=str(stream).lower())
    loaded = parse_config(config, source="agent.yaml")
    agent = Agent.from_config(loaded, plugin_manager=build_plugin_manager())
    return agent.run_sync("Say hello.")


def endless_line() -> Iterator[bytes]:
    yield b'data: {"choices": [{"index": 0, "delta": {"content": "'
    yield from itertools.repeat(b"a" * BLOCK, GIVE_UP)


def test_a_line_that_never_ends_is_a_model_error_naming_the_bound(
    fake_server: FakeServer,
) -> None:
    fake_server.replies.append(Reply(raw=endless_line()))
    result = run(fake_server)
    assert result.stop_reason == "model_error"
    assert result.message.startswith(
        "the server sent a line of more than 100,000 characters in its event stream (the "
        "max_line_chars option); the response was dropped"
    )
    assert "needs a higher max_line_chars" in result.message
    assert fake_server.disconnected.wait(timeout=30), "the client kept reading"


def endless_event() -> Iterator[bytes]:
    line = b"data: " + b"b" * 1_000 + b"\n"  # many short data lines, never a blank one
    yield from itertools.repeat(line * 64, GIVE_UP)


def test_an_event_that_never_ends_is_a_model_error_too(fake_server: FakeServer) -> None:
    fake_server.replies.append(Reply(raw=endless_event()))
    result = run(fake_server)
    assert result.stop_reason == "model_error"
    assert result.message.startswith(
        "the server sent an event of more than 100,000 characters in its event stream"
    )
    assert fake_server.disconnected.wait(timeout=30), "the client kept reading"


def test_a_whole_response_past_the_bound_is_a_model_error(fake_server: FakeServer) -> None:
    text = "c" * 150_000
    body = {"choices": [{"index": 0, "message": {"content": text}, "finish_reason": "stop"}]}
    fake_server.replies.append(Reply(body=body))
    result = run(fake_server, stream=False)
    assert result.stop_reason == "model_error"
    assert "is longer than 100,000 characters (the max_line_chars option)" in result.message


def endless_events() -> Iterator[bytes]:
    event = json.dumps(chat_event("all work and no play " * 20))
    yield from itertools.repeat(f"data: {event}\n\n".encode() * 50, GIVE_UP)


def test_well_formed_events_without_end_stop_at_max_output_chars(fake_server: FakeServer) -> None:
    fake_server.replies.extend([Reply(raw=endless_events()), Reply(raw=endless_events())])
    result = run(fake_server)
    assert result.stop_reason == "max_steps"
    for step in result.steps:
        assert len(step.output) == 50_000
        assert step.model.finish_reason == "output_limit"
        assert "(50,000 characters)" in (step.feedback or "")
    assert len(fake_server.posts) == 2
    assert fake_server.disconnected.wait(timeout=30), "the client kept reading"

"""Instruct models behind servers (issue 23): the request bodies gent-openai sends (output
budget, grammar field by server kind, chat examples as turns, the thinking budget's
continuation), against a scripted local server."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from gent_json.chain import JSONToolChain
from gent_openai.model import OpenAIModel
from gent_openai.options import DEFAULT_MAX_TOKENS, DEFAULT_THINKING_BUDGET
from gent_openai.server_kind import grammar_fields, kind_from_models
from gent_openai.thinking import ThinkingWatch, after_thinking
from gent_xml.format import XMLFormat
from openai_fake_server import FakeServer, Reply, chat_event

from gent_core import Agent, tool
from gent_core.messages import Message
from gent_core.model import ModelChunk, ModelRequest, OutputStructure


@tool
def geometry_circumference(radius: float) -> float:
    """The circumference of a circle of ``radius``."""
    return 2 * 3.14159 * radius


def structure() -> OutputStructure:
    agent = Agent(
        OpenAIModel(base_url="http://127.0.0.1:9/v1"),
        XMLFormat(),
        JSONToolChain(),
        tools=[geometry_circumference],
    )
    return agent.structure()


def request(**fields: Any) -> ModelRequest:
    messages = [Message.system("Use tools."), Message.user("Circumference of radius 2?")]
    return ModelRequest(messages, structure=structure(), **fields)


def offline(**options: Any) -> OpenAIModel:
    return OpenAIModel(base_url="http://127.0.0.1:9/v1", model="m", **options)


# ------------------------------------------------------------------ output budget


def test_every_call_gets_the_default_output_budget_unless_told_otherwise() -> None:
    plain = ModelRequest([Message.user("Hi")])
    assert offline().request_body(plain, stream=True)["max_tokens"] == DEFAULT_MAX_TOKENS == 1024
    assert offline(api="completions").request_body(plain, stream=True)["max_tokens"] == 1024
    assert offline(max_tokens=300).request_body(plain, stream=True)["max_tokens"] == 300
    assert "max_tokens" not in offline(max_tokens=None).request_body(plain, stream=True)
    limited = ModelRequest([Message.user("Hi")], max_tokens=7)
    assert offline(max_tokens=300).request_body(limited, stream=True)["max_tokens"] == 7


def test_an_output_cut_at_the_budget_ends_with_finish_reason_length(
    fake_server: FakeServer,
) -> None:
    fake_server.replies.append(
        Reply(events=[chat_event("<thinking>I will"), chat_event(finish="length"), "[DONE]"])
    )
    m = OpenAIModel(base_url=fake_server.base_url, model="m", grammar=False)
    chunks = run(m, ModelRequest([Message.user("Hi")]))
    assert chunks[-1].finish_reason == "length"
    assert fake_server.posts[0].body["max_tokens"] == DEFAULT_MAX_TOKENS


# ------------------------------------------------------------------ grammar by server kind


@pytest.mark.parametrize(
    ("owner", "kind"),
    [("llamacpp", "llamacpp"), ("vllm", "vllm"), ("sglang", "sglang"), ("me", "openai")],
)
def test_the_server_kind_is_read_from_the_models_owner(owner: str, kind: str) -> None:
    assert kind_from_models({"data": [{"id": "x", "owned_by": owner}]}) == kind


def test_a_models_listing_without_owner_or_of_an_odd_shape_is_a_plain_server() -> None:
    shapes: list[Any] = [{"data": [{"id": "x"}]}, {"data": "x"}, [], None, {"models": []}]
    for data in shapes:
        assert kind_from_models(data) == "openai"


def test_each_server_kind_gets_the_grammar_in_its_own_field() -> None:
    assert grammar_fields("llamacpp", "G") == {"grammar": "G"}
    assert grammar_fields("vllm", "G") == {"structured_outputs": {"grammar": "G"}}
    assert grammar_fields("sglang", "G") == {"ebnf": "G"}
    assert grammar_fields(None, "G") == {"grammar": "G"}


@pytest.mark.parametrize(
    ("server", "grammar", "field"),
    [
        ("llamacpp", "auto", "grammar"),
        ("vllm", "auto", "structured_outputs"),
        ("sglang", "auto", "ebnf"),
        ("openai", "auto", None),
        ("llamacpp", False, None),
        ("openai", True, "grammar"),
    ],
)
def test_grammar_auto_sends_it_only_where_the_server_takes_one(
    server: str, grammar: Any, field: str | None
) -> None:
    body = offline(server=server, grammar=grammar).request_body(request(), stream=True)
    sent = {"grammar", "structured_outputs", "ebnf"} & set(body)
    assert sent == ({field} if field else set())


def test_describe_says_how_the_grammar_is_sent() -> None:
    assert offline(server="llamacpp").describe().endswith("(grammar: the server's 'grammar' field)")
    assert offline(server="vllm").describe().endswith("'structured_outputs.grammar' field)")
    assert offline(server="openai").describe().endswith("(grammar: off, the server takes none)")
    assert offline(grammar=False).describe().endswith("(grammar: off)")
    assert offline().describe().endswith("(grammar: auto, server not asked yet)")


def test_grammar_auto_asks_the_server_once_and_then_sends_the_grammar(
    fake_server: FakeServer,
) -> None:
    fake_server.owned_by = "llamacpp"
    for _ in range(2):
        fake_server.replies.append(
            Reply(events=[chat_event("<answer>4</answer>", finish="stop"), "[DONE]"])
        )
    m = OpenAIModel(base_url=fake_server.base_url, model="m")

    async def go() -> None:
        try:
            for _ in range(2):
                [chunk async for chunk in m.stream(request())]
        finally:
            await m.aclose()

    asyncio.run(go())
    gets = [seen for seen in fake_server.requests if seen.method == "GET"]
    assert [seen.path for seen in gets] == ["/v1/models"]
    assert all("grammar" in post.body for post in fake_server.posts)
    assert "'grammar' field" in m.describe()


def test_grammar_auto_sends_none_to_a_server_that_does_not_say_it_takes_one(
    fake_server: FakeServer,
) -> None:
    fake_server.replies.append(Reply(events=[chat_event("ok", finish="stop"), "[DONE]"]))
    m = OpenAIModel(base_url=fake_server.base_url, model="m")
    run(m, request())
    assert "grammar" not in fake_server.posts[0].body
    assert m.describe().endswith("(grammar: off, the server takes none)")


# ------------------------------------------------------------------ chat prompt


def test_the_chat_api_gets_worked_examples_as_earlier_turns() -> None:
    messages = offline(grammar=False).request_body(request(), stream=True)["messages"]
    roles = [message["role"] for message in messages]
    assert roles[0] == "system" and roles.count("system") == 1
    assert messages[0]["content"].startswith("Use tools.")
    assert "worked examples" in messages[0]["content"]
    assert messages[-1] == {"role": "user", "content": "Circumference of radius 2?"}
    examples = messages[1:-1]
    # user task, assistant output, user observation, assistant output...: strictly alternating
    assert len(examples) >= 2 and len(examples) % 2 == 0
    assert roles[1:-1] == ["user", "assistant"] * (len(examples) // 2)
    assistant = [message["content"] for message in examples if message["role"] == "assistant"]
    assert any("<action>" in text for text in assistant)
    assert any("<answer>" in text for text in assistant)
    assert all(text.lstrip().startswith("<thinking>") for text in assistant)
    # The made-up tools of the neutral examples are named as not the agent's.
    assert "made up" in messages[0]["content"]
    assert "geometry_circumference" not in "".join(text for text in assistant)


def test_without_few_shot_the_chat_messages_are_the_conversation() -> None:
    messages = offline(grammar=False, few_shot=False).request_body(request(), stream=True)
    assert messages["messages"] == [
        {"role": "system", "content": "Use tools."},
        {"role": "user", "content": "Circumference of radius 2?"},
    ]


# ------------------------------------------------------------------ thinking budget


def test_the_watch_says_when_thinking_went_past_the_budget() -> None:
    watch = ThinkingWatch(structure(), 20)
    assert not watch.feed("<thinking>\nA short thought")
    assert watch.feed(" that goes on and on and on")
    assert watch.bridge(open_action=True) == "\n</thinking>\n<action>\n"
    assert watch.bridge(open_action=False) == "\n</thinking>\n"


def test_the_watch_stops_watching_once_the_action_starts() -> None:
    watch = ThinkingWatch(structure(), 20)
    assert not watch.feed("<thinking>\nshort\n</thinking>\n<action>\n")
    assert not watch.feed('{"tool": "geometry_circumference", "args": {"radius": 2}}' * 5)


def test_after_thinking_the_grammar_starts_at_the_action_or_the_answer() -> None:
    from gent_core.grammar import build_agent_grammar

    rest = after_thinking(structure())
    assert [section.name for section in rest.sections] == ["action", "answer"]
    grammar = build_agent_grammar(rest).text
    assert "thinking" not in grammar


def test_past_the_budget_the_output_is_continued_with_the_action_opened(
    fake_server: FakeServer,
) -> None:
    long = "<thinking>\nLet me work this out in detail: the radius is 2, and"
    fake_server.replies.append(
        Reply(events=[chat_event(long), chat_event(" so on" * 50), chat_event(finish="length")])
    )
    fake_server.replies.append(
        Reply(
            events=[
                chat_event('{"tool": "geometry_circumference", "args": {"radius": 2}}'),
                chat_event("\n</action>", finish="stop"),
                "[DONE]",
            ]
        )
    )
    m = OpenAIModel(base_url=fake_server.base_url, model="m", grammar=False, thinking_budget=30)
    text = "".join(chunk.text for chunk in run(m, request()))
    assert text.count("</thinking>\n<action>\n") == 1
    assert text.endswith('{"tool": "geometry_circumference", "args": {"radius": 2}}\n</action>')
    first, second = (post.body for post in fake_server.posts)
    assert second["messages"][:-1] == first["messages"]
    written = second["messages"][-1]
    assert written["role"] == "assistant"
    assert written["content"].endswith("</thinking>\n<action>\n")
    assert written["content"].startswith(long)


def test_with_a_grammar_the_continuation_is_constrained_to_the_action_or_answer(
    fake_server: FakeServer,
) -> None:
    fake_server.replies.append(Reply(events=[chat_event("<thinking>\n" + "x" * 40)]))
    fake_server.replies.append(Reply(events=[chat_event("<answer>8</answer>", finish="stop")]))
    m = OpenAIModel(base_url=fake_server.base_url, model="m", server="vllm", thinking_budget=10)
    text = "".join(chunk.text for chunk in run(m, request()))
    assert "\n</thinking>\n<answer>8</answer>" in text
    second = fake_server.posts[1].body
    assert "thinking" not in second["structured_outputs"]["grammar"]
    assert second["continue_final_message"] is True
    assert second["add_generation_prompt"] is False
    assert second["messages"][-1]["content"].endswith("</thinking>\n")


def test_no_continuation_when_thinking_stays_within_the_budget(fake_server: FakeServer) -> None:
    fake_server.replies.append(
        Reply(
            events=[
                chat_event("<thinking>\nok\n</thinking>\n<answer>8</answer>", finish="stop"),
                "[DONE]",
            ]
        )
    )
    m = OpenAIModel(base_url=fake_server.base_url, model="m", grammar=False, thinking_budget=30)
    chunks = run(m, request())
    assert len(fake_server.posts) == 1
    assert chunks[-1].finish_reason == "stop"


def run(m: OpenAIModel, req: ModelRequest) -> list[ModelChunk]:
    async def go() -> list[ModelChunk]:
        try:
            return [chunk async for chunk in m.stream(req)]
        finally:
            await m.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize(("owner", "shown"), [("llamacpp", True), (None, False)])
def test_gent_describe_asks_the_server_before_showing_the_grammar(
    fake_server: FakeServer, owner: str | None, shown: bool
) -> None:
    fake_server.owned_by = owner
    m = OpenAIModel(base_url=fake_server.base_url, model="m")
    assert (m.grammar(structure()) is not None) is shown
    assert [seen.path for seen in fake_server.requests] == ["/v1/models"]


def test_an_unreachable_server_gets_no_grammar_and_is_asked_again_later() -> None:
    m = OpenAIModel(base_url="http://127.0.0.1:9/v1", model="m")
    assert m.grammar(structure()) is None  # nothing listens there: asked again next time
    assert m.describe().endswith("(grammar: auto, server not asked yet)")


@pytest.mark.parametrize(
    ("owner", "continued"), [("llamacpp", True), ("vllm", True), ("sglang", False), (None, False)]
)
def test_by_default_the_thinking_budget_is_on_for_servers_that_continue_an_output(
    fake_server: FakeServer, owner: str | None, continued: bool
) -> None:
    fake_server.owned_by = owner
    long = "<thinking>\n" + "x" * (DEFAULT_THINKING_BUDGET + 50)
    fake_server.replies.append(Reply(events=[chat_event(long, finish="length"), "[DONE]"]))
    fake_server.replies.append(Reply(events=[chat_event("<answer>8</answer>", finish="stop")]))
    m = OpenAIModel(base_url=fake_server.base_url, model="m", grammar=False)
    assert offline().options.thinking_budget == "auto"
    text = "".join(chunk.text for chunk in run(m, request()))
    assert m.thinking_budget() == (DEFAULT_THINKING_BUDGET if continued else None)
    assert len(fake_server.posts) == (2 if continued else 1)
    assert ("\n</thinking>\n<action>\n" in text) is continued

"""Middleware: lifecycle-hook plugins switched on per agent by name in the config."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from gent_core import _builtin as core_plugin
from gent_core import hookimpl
from gent_core._agent import Agent
from gent_core._config import ConfigError, parse_config
from gent_core.context import ExecutionContext
from gent_core.messages import Message
from gent_core.model import ModelRequest
from gent_core.testing import PluginSandbox


class Shouting:
    """Middleware that upper-cases the task before the model sees it and records calls."""

    def __init__(self, *, suffix: str = "!") -> None:
        self.suffix = suffix
        self.seen: list[str] = []

    @hookimpl
    def gent_transform_messages(self, messages: list[Message], context: ExecutionContext) -> None:
        last = messages[-1]
        messages[-1] = Message.user(last.text.upper() + self.suffix)

    @hookimpl
    def gent_before_model_call(self, request: ModelRequest, context: ExecutionContext) -> None:
        self.seen.append(request.messages[-1].text)


class Typo:
    @hookimpl
    def gent_transform_mesages(self, messages: list[Message], context: ExecutionContext) -> None:
        del messages, context


class MiddlewarePlugin:
    @hookimpl
    def gent_register_middleware(self) -> Mapping[str, Callable[..., object]]:
        return {"shout": Shouting, "typo": Typo}


@pytest.fixture
def sandbox(gent_plugins: PluginSandbox) -> PluginSandbox:
    import gent_json.plugin
    import gent_xml.plugin

    gent_plugins.register(core_plugin, "core")
    gent_plugins.register(gent_xml.plugin, "xml")
    gent_plugins.register(gent_json.plugin, "json")
    gent_plugins.register(MiddlewarePlugin(), "mw")
    return gent_plugins


MODEL = "model: {name: scripted, outputs: ['<answer>ok</answer>']}\n"


def build(sandbox: PluginSandbox, text: str) -> Agent:
    loaded = parse_config(
        text,
        source="agent.yaml",
        middleware_names=lambda: {entry.name for entry in sandbox.registry().entries("middleware")},
    )
    return Agent.from_config(loaded, registry=sandbox.registry(), plugin_manager=sandbox.manager)


@pytest.mark.parametrize(
    "text",
    [
        "middleware: [shout]\n",
        "shout: true\n",
        "middleware:\n  - {name: shout}\n",
    ],
)
def test_the_three_spellings_switch_middleware_on(sandbox: PluginSandbox, text: str) -> None:
    agent = build(sandbox, MODEL + text)
    assert len(agent.middleware) == 1
    middleware = agent.middleware[0]
    assert isinstance(middleware, Shouting)
    asyncio.run(agent.run("hello"))
    assert middleware.seen == ["HELLO!"]


def test_shorthand_options_reach_the_factory(sandbox: PluginSandbox) -> None:
    agent = build(sandbox, MODEL + "shout: {suffix: '?!'}\n")
    middleware = agent.middleware[0]
    assert isinstance(middleware, Shouting)
    assert middleware.suffix == "?!"


def test_false_switches_the_shorthand_off(sandbox: PluginSandbox) -> None:
    assert build(sandbox, MODEL + "shout: false\n").middleware == []


def test_an_unknown_option_of_shorthand_middleware_points_at_the_key_written(
    sandbox: PluginSandbox,
) -> None:
    with pytest.raises(ConfigError) as caught:
        build(sandbox, MODEL + "shout: {sufix: x}\n")
    problem = caught.value.problems[0]
    assert problem.location.line == 2
    assert problem.location.key == "shout.sufix"
    assert "did you mean 'suffix'" in problem.message


def test_a_key_close_to_a_middleware_name_says_so(sandbox: PluginSandbox) -> None:
    with pytest.raises(ConfigError) as caught:
        build(sandbox, MODEL + "shoot: true\n")
    assert "did you mean the middleware 'shout'" in str(caught.value)


def test_a_bad_shorthand_value_is_refused(sandbox: PluginSandbox) -> None:
    with pytest.raises(ConfigError) as caught:
        build(sandbox, MODEL + "shout: 3\n")
    assert "switched on with 'true' or a mapping" in str(caught.value)


def test_middleware_with_a_misspelled_hook_is_reported_as_broken(sandbox: PluginSandbox) -> None:
    with pytest.raises(ConfigError) as caught:
        build(sandbox, MODEL + "middleware: [typo]\n")
    text = str(caught.value)
    assert "not usable as middleware" in text
    assert "gent_transform_mesages" in text


def test_middleware_fires_only_in_its_own_agents_runs_even_when_they_run_concurrently(
    sandbox: PluginSandbox,
) -> None:
    with_mw = build(sandbox, MODEL + "shout: true\n")
    without = build(sandbox, MODEL)
    prompts: list[str] = []

    class Spy:
        @hookimpl
        def gent_before_model_call(self, request: ModelRequest, context: ExecutionContext) -> None:
            prompts.append(request.messages[-1].text)

    sandbox.register(Spy(), "spy")  # a process-wide plugin sees both agents' calls

    async def both() -> None:
        await asyncio.gather(with_mw.run("first"), without.run("second"))

    asyncio.run(both())
    assert sorted(prompts) == ["FIRST!", "second"]
    middleware = with_mw.middleware[0]
    assert isinstance(middleware, Shouting)
    assert middleware.seen == ["FIRST!"]
    # nothing of the run stays registered on the shared manager
    assert sandbox.manager.get_plugin("middleware-0-Shouting") is None


def test_history_is_placed_between_the_system_prompt_and_the_task(
    sandbox: PluginSandbox,
) -> None:
    agent = build(sandbox, MODEL)
    requests: list[ModelRequest] = []

    class Capture:
        @hookimpl
        def gent_before_model_call(self, request: ModelRequest, context: ExecutionContext) -> None:
            requests.append(request)

    agent.middleware.append(Capture())
    history = [Message.user("earlier question"), Message.assistant("earlier answer")]
    asyncio.run(agent.run("now", history=history))
    roles: list[Any] = [(m.role, m.text) for m in requests[0].messages[1:]]
    assert roles == [
        ("user", "earlier question"),
        ("assistant", "earlier answer"),
        ("user", "now"),
    ]

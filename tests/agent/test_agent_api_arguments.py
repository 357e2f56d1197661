"""The Python API checks what it is given: ``Limits(...)`` refuses what a config refuses, by the
same rule, and ``Agent.run``/``run_sync`` refuse arguments no run could use, each a
``TypeError`` or ``ValueError`` naming the argument (issue 24, section 5)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from gent_core._agent import Agent
from gent_core._config import ConfigError, parse_config
from gent_core._limit_rules import LIMIT_RULES
from gent_core.context import Limits
from gent_core.messages import Message
from gent_core.testing import ScriptedModel

MakeAgent = Callable[..., Agent]


@pytest.mark.parametrize(
    ("arguments", "error", "text"),
    [
        ({"max_steps": 0}, ValueError, "Limits(max_steps=...): expected an integer >= 1, got 0"),
        ({"max_steps": -5}, ValueError, "max_steps"),
        ({"tool_timeout": -1}, ValueError, "Limits(tool_timeout=...): expected a finite number"),
        ({"max_calls_per_action": 0}, ValueError, "max_calls_per_action"),
        ({"max_steps": "3"}, TypeError, "Limits(max_steps=...): expected an integer >= 1, got '3'"),
    ],
)
def test_the_reported_limits_are_refused_when_made(
    arguments: dict[str, Any], error: type[Exception], text: str
) -> None:
    with pytest.raises(error) as caught:
        Limits(**arguments)
    assert text in str(caught.value)


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("max_steps", True, TypeError),
        ("max_steps", 2.5, TypeError),
        ("max_repairs", -1, ValueError),
        ("model_timeout", math.nan, ValueError),
        ("model_idle_timeout", math.inf, ValueError),
        ("tool_timeout", None, TypeError),
        ("max_model_calls", 0, ValueError),
        ("max_repeated_failures", "3", TypeError),
    ],
)
def test_a_limit_set_later_is_checked_too(name: str, value: object, error: type) -> None:
    limits = Limits()
    with pytest.raises(error, match=name):
        setattr(limits, name, value)
    assert getattr(limits, name) == getattr(Limits(), name)  # left as it was


@pytest.mark.parametrize("value", [0, -1, 1, 2, 0.5, "3", True, None])
@pytest.mark.parametrize("name", sorted(LIMIT_RULES))
def test_a_config_and_limits_accept_the_same_values(name: str, value: object) -> None:
    """One rule: every bound, for values on both sides of each rule."""
    keys = {
        "max_steps": "max_steps",
        "tool_timeout": "timeouts.tool",
        "model_timeout": "timeouts.model",
        "model_idle_timeout": "timeouts.model_idle",
    }
    key = keys.get(name, f"limits.{name}")
    parent, _, leaf = key.rpartition(".")
    shown = "null" if value is None else ("true" if value is True else repr(value))
    text = (
        f"model: scripted\n{parent}: {{{leaf}: {shown}}}\n"
        if parent
        else f"model: scripted\n{leaf}: {shown}\n"
    )
    arguments: dict[str, Any] = {name: value}
    try:
        Limits(**arguments)
    except (TypeError, ValueError):
        limits_accept = False
    else:
        limits_accept = True
    try:
        parse_config(text)
    except ConfigError:
        config_accepts = False
    else:
        config_accepts = True
    if isinstance(value, str) and not limits_accept:
        return  # YAML reads '3' as a string; a config written 3 is an integer
    assert limits_accept == config_accepts, (name, value)


@pytest.mark.parametrize(
    ("task", "options", "text"),
    [
        (None, {}, "Agent.run: task must be a string (str), got NoneType"),
        (b"x", {}, "Agent.run: task must be a string (str), got bytes"),
        ("t", {"history": [1, 2]}, "Agent.run: history[0] must be a gent_core.Message"),
    ],
)
def test_the_reported_run_arguments_are_refused_naming_them(
    make_agent: MakeAgent, task: Any, options: dict[str, Any], text: str
) -> None:
    model = ScriptedModel(["<answer>x</answer>"])
    with pytest.raises(TypeError) as caught:
        make_agent(model).run_sync(task, **options)
    assert text in str(caught.value)
    assert model.requests == []  # nothing ran


@pytest.mark.parametrize(
    ("options", "text"),
    [
        ({"history": "hello"}, "history must be a list of gent_core.Message, got str"),
        ({"history": [Message.user("a"), {"role": "user"}]}, "history[1] must be"),
        ({"on_event": 5}, "on_event must be a function"),
        ({"transcript": 3}, "transcript must be a file path"),
    ],
)
def test_other_run_arguments_are_refused_in_run_too(
    make_agent: MakeAgent, options: dict[str, Any], text: str
) -> None:
    import asyncio

    model = ScriptedModel(["<answer>x</answer>"])
    with pytest.raises(TypeError, match=text.replace("[", r"\[").replace("]", r"\]")):
        asyncio.run(make_agent(model).run("t", **options))
    assert model.requests == []

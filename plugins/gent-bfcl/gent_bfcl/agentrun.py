"""gent's own agent on BFCL: each task's functions as declared tools, the first step judged.

For each task and configuration (an agent config file, possibly with overrides):

1. the configuration gets the task's functions as declared tools that record their calls and
   stop the run (``tools: [{declare: {name, description, parameters, stop: true}}]``, the
   schemas converted by :func:`gent_bfcl.schema.to_tool_spec`, the names as BFCL writes them)
   and ``max_steps: 1``, through gent's own override mechanism
   (:func:`gent_core.apply_overrides`);
2. an :class:`~gent_core.Agent` is built from it (``Agent.from_config``) and run on the task's
   first turn with the configuration's model, created and loaded once and shared by every task
   (as ``gent eval`` shares it);
3. the first step is judged like BFCL judges a model's first answer: its calls, as the model
   wrote them (after any repair the agent made, before defaults are filled in), go to gent's
   checker (:func:`gent_bfcl.checker.check_task`); an answer without a call is no call; an
   output the agent could not use is ``unparsable`` (in irrelevance categories, no call, so
   valid, as BFCL counts an undecodable output there).

Besides the verdict, each result counts the calls that copied a value from an example call
the prompt showed (:func:`copied`) and the repairs the agent asked for and got
(``StepRecord.repairs``). Nothing a model or a configuration does raises out of
:func:`run_agent`: a run that fails is a ``model_error`` result.

The logic is reusable: ``gent eval bfcl:...`` can call :func:`run_agent_task` per task.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gent_bfcl.categories import check_kind
from gent_bfcl.checker import check_task
from gent_bfcl.names import from_gent_name
from gent_bfcl.runner import TaskResult
from gent_bfcl.schema import to_tool_spec
from gent_bfcl.verdict import UNDECODED_AS_NO_CALL, FailureKind, Verdict

if TYPE_CHECKING:
    from gent_bfcl.data import BFCLTask
    from gent_core import Agent, LoadedConfig, Model, Registry, RunResult

__all__ = [
    "AgentConfiguration",
    "copied",
    "example_values",
    "judge_run",
    "run_agent",
    "run_agent_task",
    "task_overrides",
    "task_text",
]


@dataclass(frozen=True)
class AgentConfiguration:
    """One agent configuration under evaluation.

    Attributes:
        label: Its name in results (``format=xml toolchain=json``).
        loaded: The configuration (its ``tools`` and ``max_steps`` are replaced per task).
    """

    label: str
    loaded: LoadedConfig


def task_overrides(task: BFCLTask) -> dict[str, Any]:
    """The configuration keys a task sets: its functions as declared tools that record their
    calls and stop the run, and one step.

    Raises:
        BFCLSchemaError: When a function doc cannot be converted.
    """
    tools = [
        {"declare": {**to_tool_spec(function).declaration(), "stop": True}}
        for function in task.functions
    ]
    return {"tools": tools, "max_steps": 1}


def task_text(task: BFCLTask) -> str:
    """The task the agent is given: the first turn's messages, in order (BFCL's single-turn
    categories hold one user message, sometimes after a system message).
    """
    return "\n\n".join(str(message["content"]).strip() for message in task.question[0])


def _leaves(value: Any) -> Iterable[Any]:
    if isinstance(value, Mapping):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, str | int | float) and not isinstance(value, bool):
        yield value


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def example_values(agent: Agent, task: str) -> set[str]:
    """The argument values (strings and numbers, at any depth) of the example calls the agent's
    prompt shows for ``task``: the calls the tool chain's guidance shows
    (:func:`gent_core.guidance.guidance_calls`) and the few-shot examples a base-model back end
    renders (:func:`gent_prompt.default_examples`). Values made from a schema for ``gent
    tools show`` (``ToolChain.example_calls``) are not in the prompt and not counted.
    """
    from gent_prompt import default_examples

    from gent_core.guidance import guidance_calls

    calls = []
    chain = agent.toolchain
    if chain is not None:
        with contextlib.suppress(Exception):
            calls += guidance_calls(chain)
    with contextlib.suppress(Exception):
        for example in default_examples(agent.structure(), task=task):
            calls += list(example.calls)
    return {_key(value) for call in calls for value in _leaves(call.args)}


def copied(arguments: Mapping[str, Any], examples: set[str], task: str) -> bool:
    """Whether a call's ``arguments`` hold a value an example call showed and the task does
    not hold: a string or number (at any depth) equal to an example's value, that is not
    written in the task (so copying it cannot have come from the task).
    """
    text = task.lower()
    for value in _leaves(arguments):
        if _key(value) in examples and str(value).lower() not in text:
            return True
    return False


def judge_run(
    task: BFCLTask, result: RunResult
) -> tuple[list[dict[str, dict[str, Any]]] | None, Verdict]:
    """The calls of the run's first step in BFCL's form (``[{name: arguments}]``; ``None``
    when the step could not be used) and their verdict.
    """
    if result.stop_reason == "model_error" or not result.steps:
        return None, Verdict.fail(FailureKind.MODEL_ERROR, result.message)
    first = result.steps[0]
    if first.outcome == "feedback":
        if check_kind(task.category) == "irrelevance":
            return None, Verdict.ok(UNDECODED_AS_NO_CALL)
        return None, Verdict.fail(
            FailureKind.UNPARSABLE, f"the agent could not use the output: {first.feedback}"
        )
    calls = [{from_gent_name(call.tool): dict(call.args)} for call in first.calls]
    return calls, check_task(task, calls)


def _failed(task: BFCLTask, label: str, error: BaseException, seconds: float) -> TaskResult:
    return TaskResult(
        task.id,
        task.category,
        "",
        None,
        Verdict.fail(FailureKind.MODEL_ERROR, f"{type(error).__name__}: {error}"),
        None,
        None,
        seconds,
        config=label,
    )


async def run_agent_task(
    configuration: AgentConfiguration,
    model: Model,
    task: BFCLTask,
    *,
    registry: Registry | None = None,
    max_tokens: int | None = None,
) -> TaskResult:
    """Run gent's agent on one task's first turn with the shared ``model`` and judge its first
    step (see the module docstring).

    Args:
        configuration: The agent configuration.
        model: The configuration's model, loaded once and shared by every task.
        task: The task.
        registry: Where components are looked up (default: the installed plugins).
        max_tokens: Tokens one model call may generate (``None``: the back end's default).
    """
    from gent_core import Agent, apply_overrides

    started = time.perf_counter()
    text = task_text(task)
    try:
        configured = apply_overrides(
            configuration.loaded, task_overrides(task), origin=f"BFCL task {task.id}"
        )
        agent = Agent.from_config(configured, registry=registry)
    except Exception as error:  # noqa: BLE001 - a task that cannot be configured is a result
        return _failed(task, configuration.label, error, time.perf_counter() - started)
    own, agent.model = agent.model, model
    agent.max_tokens = max_tokens
    try:
        examples = example_values(agent, text)
        result = await agent.run(text)
    except Exception as error:  # noqa: BLE001 - a failing run is a result, not a crash
        return _failed(task, configuration.label, error, time.perf_counter() - started)
    finally:
        agent.model = own  # closing the agent must not close the shared model
        with contextlib.suppress(Exception):
            await agent.aclose()
    calls, verdict = judge_run(task, result)
    first = result.steps[0] if result.steps else None
    repairs = list(first.repairs) if first is not None else []
    return TaskResult(
        task.id,
        task.category,
        first.output if first is not None else "",
        calls,
        verdict,
        result.stats.input_tokens if result.stats.tokens_reported else None,
        result.stats.output_tokens if result.stats.tokens_reported else None,
        result.stats.total_seconds,
        first.model.finish_reason if first is not None else None,
        config=configuration.label,
        copied_calls=sum(
            copied(args, examples, text) for call in calls or [] for args in call.values()
        ),
        repairs=len(repairs),
        repaired=sum(1 for repair in repairs if repair.ok),
    )


async def run_agent(
    configuration: AgentConfiguration,
    model: Model,
    tasks: Sequence[BFCLTask],
    *,
    registry: Registry | None = None,
    max_tokens: int | None = None,
    on_result: Callable[[TaskResult], None] | None = None,
) -> list[TaskResult]:
    """Run :func:`run_agent_task` for each task in turn with the shared ``model`` (loaded first,
    so its loading time is in no task's seconds); ``on_result`` sees each result as it comes.
    """
    with contextlib.suppress(Exception):  # each task then reports the model's error
        await model.load()
    results = []
    for task in tasks:
        result = await run_agent_task(
            configuration, model, task, registry=registry, max_tokens=max_tokens
        )
        if on_result is not None:
            on_result(result)
        results.append(result)
    return results

"""Raw prompts for base models: the conversation, and a few-shot example in the agent's format.

Shared by every back end that sends one prompt instead of chat messages (the in-process
``llamacpp`` model, the ``openai`` model's completions API).

With an :class:`~gent_core.model.OutputStructure`, the prompt is::

    <system text>

    Example of the format:
    <task section: an example task>
    <thinking ...> <action: a call to one of the agent's own tools> <observation ...>
    <thinking ...> <answer ...>

    Now the real task:
    <task section: the user's message>
    <earlier outputs and observations, as they were written>

and the model continues with its next output. Without a structure, messages are rendered
as a ``User:`` / ``Assistant:`` transcript ending with ``Assistant:``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gent_core.grammar import chain_syntax, section_delimiters
from gent_core.grammar.calls import yaml_key
from gent_core.grammar.sections import GrammarUnsupportedError
from gent_core.schema_examples import example_arguments, example_value
from gent_core.sections import FormattedSection

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.messages import Message
    from gent_core.model import OutputStructure
    from gent_core.toolchain import ToolChain
    from gent_core.tools.base import Tool

__all__ = ["TRANSCRIPT_STOP", "render_calls", "render_prompt"]

TRANSCRIPT_STOP = "\nUser:"
"""Stop sequence added to unstructured prompts, so the model does not write the user's turn."""

TASK_SECTION = "task"

EXAMPLE_RESULT = "42"
"""The tool result shown in the few-shot example (the answer restates it)."""


def render_calls(chain: ToolChain, calls: Sequence[tuple[str, dict[str, Any]]]) -> str | None:
    """Write ``calls`` in the chain's syntax (``None`` for a syntax gent does not know)."""
    syntax = chain_syntax(chain)
    if syntax == "json":
        objects = [{"tool": name, "args": args} for name, args in calls]
        return json.dumps(objects[0] if len(objects) == 1 else objects, ensure_ascii=False)
    if syntax == "yaml":
        blocks = []
        single = len(calls) == 1
        for name, args in calls:
            head, indent = ("tool: ", "  ") if single else ("- tool: ", "    ")
            lines = [f"{head}{yaml_key(name)}", ("" if single else "  ") + "args:"]
            if not args:
                lines[-1] += " {}"
            for key, value in args.items():
                text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
                lines.append(f"{indent}{yaml_key(key)}: {text}")
            blocks.append("\n".join(lines))
        return "\n".join(blocks)
    return None


def _pick_tool(tools: Sequence[Tool]) -> Tool:
    with_args = [tool for tool in tools if (tool.parameters or {}).get("properties")]
    return (with_args or list(tools))[0]


def _free_sections(structure: OutputStructure) -> list[str]:
    parts = (structure.toolchain, structure.termination)
    special = {part.name for part in parts if part is not None}
    return [section.name for section in structure.sections if section.name not in special]


def _example_action(structure: OutputStructure, free: list[str]) -> tuple[str, list[str]]:
    """The example task, and the blocks of its action step with the observation."""
    chain = structure.toolchain
    if chain is None or not chain.tools:
        return "Answer the question.", []
    tool = _pick_tool(chain.tools)
    arguments = example_arguments(tool.parameters or {})
    calls = render_calls(chain, [(tool.name, arguments)])
    # The task mentions the argument values, so the example shows how a task's details
    # become the call's arguments (a base model copies what it sees).
    values = ", ".join(
        str(value) for value in arguments.values() if isinstance(value, str | int | float)
    )
    task = f"What is {values}?" if values else f"Use the {tool.name} tool."
    if calls is None:
        return task, []
    step = [FormattedSection(name, f"I will use the {tool.name} tool.") for name in free]
    step.append(FormattedSection(chain.name, calls))
    fmt = structure.format
    observation = fmt.format_observation([FormattedSection(tool.name, EXAMPLE_RESULT)])
    return task, [fmt.format_sections(step), observation]


def _example_answer(structure: OutputStructure, free: list[str]) -> list[str]:
    """The blocks of the example's answer step."""
    termination = structure.termination
    if termination is None:
        return []
    from gent_core.terminations.typed import JSONTermination

    chain = structure.toolchain
    if chain is not None and chain.tools:
        tool_name = _pick_tool(chain.tools).name
        # Restating the observed value teaches a base model to answer from the observation.
        answer = (
            f"The {tool_name} tool returned {EXAMPLE_RESULT}, so the answer is {EXAMPLE_RESULT}."
        )
    else:
        answer = "The answer, based on what I know."
    if isinstance(termination, JSONTermination):
        schema = termination.json_schema
        answer = json.dumps(example_value(schema, schema, "answer"), ensure_ascii=False)
    step = [FormattedSection(name, "I have what I need to answer.") for name in free]
    step.append(FormattedSection(termination.name, answer))
    return [structure.format.format_sections(step)]


def _example(structure: OutputStructure) -> str:
    free = _free_sections(structure)
    task, action = _example_action(structure, free)
    blocks = [structure.format.format_section(TASK_SECTION, task), *action]
    blocks.extend(_example_answer(structure, free))
    return "\n".join(blocks)


def _is_observation(fmt: TextFormat, text: str) -> bool:
    try:
        prefix, _ = section_delimiters(fmt, fmt.observation_name)
    except (GrammarUnsupportedError, ValueError):
        return False
    return bool(prefix.strip()) and text.lstrip().startswith(prefix.strip())


def _structured(messages: Sequence[Message], structure: OutputStructure, few_shot: bool) -> str:
    fmt = structure.format
    parts = [message.text.strip() for message in messages if message.role == "system"]
    if few_shot:
        parts.append("Example of the format:\n" + _example(structure))
        parts.append("Now the real task:")
    turns = []
    for message in messages:
        if message.role == "system":
            continue
        text = message.text.strip()
        if message.role == "user" and not _is_observation(fmt, text):
            text = fmt.format_section(TASK_SECTION, text)
        turns.append(text)
    head = "\n\n".join(part for part in parts if part)
    body = "\n".join(turns)
    return f"{head}\n{body}\n" if head else f"{body}\n"


def _transcript(messages: Sequence[Message]) -> str:
    lines = []
    for message in messages:
        if message.role == "system":
            lines.append(message.text.strip())
        else:
            label = "User" if message.role == "user" else "Assistant"
            lines.append(f"{label}: {message.text.strip()}")
    lines.append("Assistant:")
    return "\n\n".join(line for line in lines if line)


def render_prompt(
    messages: Sequence[Message], structure: OutputStructure | None, *, few_shot: bool = True
) -> str:
    """Render ``messages`` as one raw prompt for a base model.

    Args:
        messages: The conversation, system message first.
        structure: The agent's output structure; ``None`` renders a plain transcript.
        few_shot: Add an example conversation in the agent's format (structured prompts only).

    Returns:
        The prompt; the model's continuation is its next output.
    """
    if structure is None:
        return _transcript(messages)
    return _structured(messages, structure, few_shot)

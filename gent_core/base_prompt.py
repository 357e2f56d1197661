"""Raw prompts for base models: the conversation, and few-shot examples in the agent's format.

Shared by every back end that sends one prompt instead of chat messages (the in-process
``llamacpp`` model, the ``openai`` model's completions API).

With an :class:`~gent_core.model.OutputStructure`, the prompt is::

    <system text>

    Example of the format:
    <task section: an example task>
    <thinking ...> <action: calls to the agent's own tools> <observation ...>
    <thinking ...> <answer ...>

    Now the real task:
    <task section: the user's message>
    <earlier outputs and observations, as they were written>

and the model continues with its next output. Without a structure, messages are rendered
as a ``User:`` / ``Assistant:`` transcript ending with ``Assistant:``.

Every piece of an example is written by the agent's own components: the sections by the
format, the calls by the tool chain's :meth:`~gent_core.toolchain.ToolChain.format_calls`
(of its :meth:`~gent_core.toolchain.ToolChain.example_calls`), the observation by the
format, the answer by the termination's
:meth:`~gent_core.termination.Termination.example_answer`. An example is data
(:class:`FewShotExample`); :func:`default_examples` makes the one gent shows and
:func:`render_examples` writes any list of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gent_core.grammar.sections import GrammarUnsupportedError, section_delimiters
from gent_core.observation import section_name_for
from gent_core.sections import FormattedSection

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.messages import Message
    from gent_core.model import OutputStructure
    from gent_core.toolchain import ToolCall

__all__ = [
    "EXAMPLE_RESULT",
    "TRANSCRIPT_STOP",
    "FewShotExample",
    "default_examples",
    "render_examples",
    "render_prompt",
]

TRANSCRIPT_STOP = "\nUser:"
"""Stop sequence added to unstructured prompts, so the model does not write the user's turn."""

TASK_SECTION = "task"

EXAMPLE_RESULT = "42"
"""The tool result shown in the default few-shot example (the answer restates it)."""


@dataclass(frozen=True)
class FewShotExample:
    """One worked example: a task, the calls made for it, their results, and the answer.

    Attributes:
        task: What the user asks.
        calls: The calls of the one action step (none: the example answers at once).
        results: The text of each call's result, in call order.
        answer: What the answer says in words; the termination writes the answer section
            from it (:meth:`~gent_core.termination.Termination.example_answer`).
        thoughts: The text of free sections (``thinking``) before acting and before answering.
    """

    task: str
    calls: Sequence[ToolCall] = ()
    results: Sequence[str] = ()
    answer: str = ""
    thoughts: tuple[str, str] = ("I will use a tool.", "I have what I need to answer.")


def _free_sections(structure: OutputStructure) -> list[str]:
    parts = (structure.toolchain, structure.termination)
    special = {part.name for part in parts if part is not None}
    return [section.name for section in structure.sections if section.name not in special]


def _scalar_values(calls: Sequence[ToolCall]) -> list[str]:
    return [
        str(value)
        for call in calls
        for value in call.args.values()
        if isinstance(value, str | int | float) and not isinstance(value, bool)
    ]


def default_examples(structure: OutputStructure) -> list[FewShotExample]:
    """The few-shot examples gent shows for ``structure``: one task solved with the tool
    chain's first example call (when there are tools), whose answer restates the result.
    """
    chain = structure.toolchain
    calls = chain.example_calls()[:1] if chain is not None and chain.tools else []
    if not calls:
        return [FewShotExample("Answer the question.", answer="The answer, based on what I know.")]
    call = calls[0]
    # The task mentions the argument values, so the example shows how a task's details
    # become the call's arguments (a base model copies what it sees).
    values = ", ".join(_scalar_values(calls))
    task = f"What is {values}?" if values else f"Use the {call.tool} tool."
    # Restating the observed value teaches a base model to answer from the observation.
    answer = f"The {call.tool} tool returned {EXAMPLE_RESULT}, so the answer is {EXAMPLE_RESULT}."
    thoughts = (f"I will use the {call.tool} tool.", "I have what I need to answer.")
    return [FewShotExample(task, calls, [EXAMPLE_RESULT], answer, thoughts)]


def _render_example(structure: OutputStructure, example: FewShotExample) -> list[str]:
    fmt = structure.format
    free = _free_sections(structure)
    blocks = [fmt.format_section(TASK_SECTION, example.task)]
    chain = structure.toolchain
    if example.calls and chain is not None:
        step = [FormattedSection(name, example.thoughts[0]) for name in free]
        step.append(FormattedSection(chain.name, chain.format_calls(example.calls)))
        results = [
            FormattedSection(section_name_for(call.tool), result)
            for call, result in zip(example.calls, example.results, strict=False)
        ]
        blocks += [fmt.format_sections(step), fmt.format_observation(results)]
    termination = structure.termination
    if termination is not None:
        step = [FormattedSection(name, example.thoughts[1]) for name in free]
        step.append(FormattedSection(termination.name, termination.example_answer(example.answer)))
        blocks.append(fmt.format_sections(step))
    return blocks


def render_examples(structure: OutputStructure, examples: Sequence[FewShotExample]) -> str:
    """Write ``examples`` in the agent's format, one after the other (see the module
    documentation for who writes each piece).
    """
    return "\n\n".join("\n".join(_render_example(structure, example)) for example in examples)


def _is_observation(fmt: TextFormat, text: str) -> bool:
    try:
        prefix, _ = section_delimiters(fmt, fmt.observation_name)
    except GrammarUnsupportedError:
        return False
    return bool(prefix.strip()) and text.lstrip().startswith(prefix.strip())


def _structured(
    messages: Sequence[Message],
    structure: OutputStructure,
    examples: Sequence[FewShotExample],
) -> str:
    fmt = structure.format
    parts = [message.text.strip() for message in messages if message.role == "system"]
    if examples:
        label = "Example of the format:" if len(examples) == 1 else "Examples of the format:"
        parts.append(f"{label}\n{render_examples(structure, examples)}")
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
    messages: Sequence[Message],
    structure: OutputStructure | None,
    *,
    few_shot: bool = True,
    examples: Sequence[FewShotExample] | None = None,
) -> str:
    """Render ``messages`` as one raw prompt for a base model.

    Args:
        messages: The conversation, system message first.
        structure: The agent's output structure; ``None`` renders a plain transcript.
        few_shot: Add examples in the agent's format (structured prompts only).
        examples: The examples to show; :func:`default_examples` by default.

    Returns:
        The prompt; the model's continuation is its next output.
    """
    if structure is None:
        return _transcript(messages)
    if not few_shot:
        shown: Sequence[FewShotExample] = ()
    else:
        shown = default_examples(structure) if examples is None else examples
    return _structured(messages, structure, shown)

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

Histories recorded with native function calling are written the way the agent would have
written them: an assistant message's tool calls as an action section (its text in the
thinking section), written by the tool chain, and the ``role: tool`` results that follow as
one observation with a section per tool. In a plain transcript they read ``[calls NAME with
ARGUMENTS]`` and ``Tool result of NAME: ...``, and an image reads
:data:`~gent_core.messages.IMAGE_OMITTED`.

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

from gent_core import section_name_for
from gent_core.errors import GentError
from gent_core.grammar import section_delimiters
from gent_core.guidance import ERROR_PREFIX
from gent_core.messages import IMAGE_OMITTED, Message
from gent_core.sections import FormattedSection
from gent_core.toolchain import ToolCall
from gent_prompt.example_choice import choose_positions, is_alike

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.messages import MessageToolCall
    from gent_core.model import OutputStructure
    from gent_core.toolchain import ToolChain
    from gent_core.tools.base import Tool, ToolExample

__all__ = [
    "ANSWER_THOUGHT",
    "DEFAULT_EXAMPLE_COUNT",
    "SHORT_RESULT",
    "TRANSCRIPT_STOP",
    "NEUTRAL_EXAMPLES",
    "RECOVERY_EXAMPLE",
    "FailedTry",
    "FewShotExample",
    "default_examples",
    "example_from_tool",
    "neutral_examples",
    "render_chat",
    "render_examples",
    "render_prompt",
    "shown_examples",
]

TRANSCRIPT_STOP = "\nUser:"
"""Stop sequence added to unstructured prompts, so the model does not write the user's turn."""

TASK_SECTION = "task"

DEFAULT_EXAMPLE_COUNT = 3
"""How many declared tool examples a few-shot prompt shows at most."""

ANSWER_THOUGHT = "I have what I need to answer."
"""The thinking before an example's answer, when its result is too long to restate."""

SHORT_RESULT = 40
"""Results up to this many characters are restated in the thinking before the answer."""


@dataclass(frozen=True)
class FailedTry:
    """A first action of a worked example whose calls all failed.

    Attributes:
        calls: The calls written.
        errors: The model-facing text of each call's error (written ``Error: <text>``).
        thought: The text of free sections (``thinking``) before these calls.
    """

    calls: Sequence[ToolCall]
    errors: Sequence[str]
    thought: str = "I will use a tool."


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
        failed: An action before ``calls`` whose calls failed (``thoughts[0]`` then follows
            its errors).
    """

    task: str
    calls: Sequence[ToolCall] = ()
    results: Sequence[str] = ()
    answer: str = ""
    thoughts: tuple[str, str] = ("I will use a tool.", "I have what I need to answer.")
    failed: FailedTry | None = None


def _free_sections(structure: OutputStructure) -> list[str]:
    parts = (structure.toolchain, structure.termination)
    special = {part.name for part in parts if part is not None}
    return [section.name for section in structure.sections if section.name not in special]


def _declared_examples(tools: Sequence[Tool]) -> list[tuple[Tool, ToolExample]]:
    """Every declared example, taken in turn from each tool (the first example of every
    tool, then the second...), so the first few show different tools and values.
    """
    queues = [[(tool, example) for example in tool.examples] for tool in tools]
    return [
        queue[depth]
        for depth in range(max((len(queue) for queue in queues), default=0))
        for queue in queues
        if depth < len(queue)
    ]


def _restated(tool: str, result: str) -> str:
    """An answer saying what the tool returned (for examples that give no answer)."""
    if "\n" in result.strip():
        return f"The {tool} tool returned:\n{result.strip()}"
    return f"The {tool} tool returned {result.strip()}."


def example_from_tool(chain: ToolChain, tool: Tool, example: ToolExample) -> FewShotExample:
    """The few-shot example of a tool's declared :class:`~gent_core.tools.base.ToolExample`:
    its task, one call with its arguments, its result written by ``chain``
    (:meth:`~gent_core.toolchain.ToolChain.format_output`) and its answer (by default, a
    sentence restating the result). The thinking before the answer restates a result of up to
    :data:`SHORT_RESULT` characters ("The calculator tool returned 100.0."): a small model
    copies the value it has just read into its thinking, then from there into its answer.

    Raises:
        Exception: Whatever ``chain.format_output`` raises for the result.
    """
    call = ToolCall(tool.name, dict(example.arguments), "call_0")
    result = chain.format_output(example.result)
    answer = example.answer if example.answer is not None else _restated(tool.name, result)
    seen = _restated(tool.name, result) if len(result) <= SHORT_RESULT else ANSWER_THOUGHT
    thoughts = (f"I will use the {tool.name} tool.", seen)
    return FewShotExample(example.task, [call], [result], answer, thoughts)


NEUTRAL_EXAMPLES: tuple[FewShotExample, ...] = (
    FewShotExample(
        "Write a short greeting for a birthday card.",
        answer="Happy birthday! Wishing you a wonderful year ahead.",
        thoughts=(
            "",
            "The question asks for a greeting. None of my tools writes one, so I answer "
            "without a tool.",
        ),
    ),
    FewShotExample(
        "How many people live in Lyon and in Porto?",
        [
            ToolCall("city_population", {"city": "Lyon"}, "call_0"),
            ToolCall("city_population", {"city": "Porto"}, "call_1"),
        ],
        ["522250", "231800"],
        "The city_population tool returned 522250 for Lyon and 231800 for Porto, so Lyon has "
        "522250 inhabitants and Porto 231800.",
        (
            "I will call city_population twice.",
            "The city_population tool returned 522250 for Lyon and 231800 for Porto.",
        ),
    ),
    FewShotExample(
        "How high is Mount Kilimanjaro?",
        [ToolCall("mountain_height", {"name": "Kilimanjaro"}, "call_0")],
        ["5895 m"],
        "The mountain_height tool returned 5895 m, so Mount Kilimanjaro is 5895 m high.",
        (
            "I will call mountain_height.",
            "The mountain_height tool returned 5895 m.",
        ),
    ),
)
"""The worked examples a few-shot prompt shows when no tool declares examples of its own: made-up
tools that are not the agent's (so no value of theirs can be the answer to a real task), each
value visibly taken from its own question, each answer opening with the result it restates
(as the tools' own examples do: a small model that opens with the task's subject forgets the
result). One question no tool fits, answered without a call;
one asking about two things, with a call for each in one action; one call. The most common case
comes last, right before the real task."""


RECOVERY_EXAMPLE = FewShotExample(
    "How long is the river Danube?",
    [ToolCall("river_length", {"name": "Danube"}, "call_0")],
    ["2850 km"],
    "The river_length tool returned 2850 km, so the Danube is 2850 km long.",
    (
        "The city_population call failed, so it gave no result. I will call river_length.",
        "The river_length tool returned 2850 km.",
    ),
    FailedTry(
        [ToolCall("city_population", {"city": "Danube"}, "call_0")],
        ["no city named 'Danube'."],
        "I will call city_population.",
    ),
)
"""The worked example a few-shot prompt shows once a call of the run has failed, instead of the
others: a call of the wrong made-up tool fails, and the model, having no result, calls another
tool rather than answering. It shows no successful call of the agent's own tools, so no value
of theirs is there to be copied in place of the result the failed call did not give."""


def neutral_examples(chain: ToolChain | None) -> list[FewShotExample]:
    """The :data:`NEUTRAL_EXAMPLES` for ``chain``: those whose made-up tools none of the chain's
    tools is named like (only the answer without a call when there is no chain or no tool).
    """
    names = {tool.name for tool in chain.tools} if chain is not None else set()
    return [
        example
        for example in NEUTRAL_EXAMPLES
        if (not example.calls and chain is not None and chain.tools)
        or (example.calls and names and not any(call.tool in names for call in example.calls))
    ] or [FewShotExample("Answer the question.", answer="The answer, based on what I know.")]


def default_examples(
    structure: OutputStructure, count: int = DEFAULT_EXAMPLE_COUNT, task: str | None = None
) -> list[FewShotExample]:
    """The few-shot examples gent shows for ``structure``.

    With tools that declare examples (:attr:`Tool.examples <gent_core.tools.base.Tool.examples>`),
    up to ``count`` of them, so that they show different tools, values and results (a small
    model copies a single example verbatim); an example the chain cannot write is skipped.
    Without ``task``, they are taken in turn from each tool. With it, they are the ones most
    like the task, one of each tool first, the most alike last
    (:func:`~gent_prompt.example_choice.choose_positions`).

    Without declared examples, the :data:`NEUTRAL_EXAMPLES` (made-up tools, so that no value
    shown can be copied into a real call as if it were the answer; see
    :func:`neutral_examples`); the same when some tool declares none and ``task`` shares no
    word with any declared example (:func:`~gent_prompt.example_choice.is_alike`): the task is
    likely for a tool without examples, and a small model shown only another tool's examples
    calls that tool. Without tools, one task answered at once.
    """
    chain = structure.toolchain
    writable: list[tuple[tuple[Tool, ToolExample], FewShotExample]] = []
    if chain is not None and count > 0:
        for tool, declared in _declared_examples(chain.tools):
            if task is None and len(writable) == count:
                break
            try:
                example = example_from_tool(chain, tool, declared)
                chain.format_calls(example.calls)
            except Exception:  # noqa: BLE001 - a chain that cannot write it: skip it
                continue
            writable.append(((tool, declared), example))
    undeclared = chain is not None and any(not tool.examples for tool in chain.tools)
    if task is not None and undeclared and not is_alike(task, [pair for pair, _ in writable]):
        examples = []
    elif task is None:
        examples = [example for _, example in writable[:count]]
    else:
        positions = choose_positions(task, [pair for pair, _ in writable], count)
        examples = [writable[position][1] for position in positions]
    return examples or neutral_examples(chain)


def _example_outputs(structure: OutputStructure, example: FewShotExample) -> list[str]:
    """What follows an example's task, in turn: the model's output, the observation, the
    model's output... (outputs at even positions, observations at odd ones).
    """
    fmt = structure.format
    free = _free_sections(structure)
    blocks: list[str] = []
    chain = structure.toolchain
    if example.failed is not None and chain is not None:
        failed = example.failed
        step = [FormattedSection(name, failed.thought) for name in free]
        step.append(FormattedSection(chain.name, chain.format_calls(failed.calls)))
        errors = [
            FormattedSection(section_name_for(call.tool), f"{ERROR_PREFIX}{error}")
            for call, error in zip(failed.calls, failed.errors, strict=False)
        ]
        blocks += [fmt.format_sections(step), fmt.format_observation(errors)]
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


def _render_example(structure: OutputStructure, example: FewShotExample) -> list[str]:
    task = structure.format.format_section(TASK_SECTION, example.task)
    return [task, *_example_outputs(structure, example)]


def render_examples(structure: OutputStructure, examples: Sequence[FewShotExample]) -> str:
    """Write ``examples`` in the agent's format, one after the other (see the module
    documentation for who writes each piece).
    """
    return "\n\n".join("\n".join(_render_example(structure, example)) for example in examples)


def _is_observation(fmt: TextFormat, text: str) -> bool:
    try:
        prefix, _ = section_delimiters(fmt, fmt.observation_name)
    except GentError:  # the format does not write the section's content verbatim
        return False
    return bool(prefix.strip()) and text.lstrip().startswith(prefix.strip())


def _native_call(call: MessageToolCall) -> ToolCall | None:
    """A native call as a :class:`ToolCall`, or ``None`` when its arguments are not a JSON
    object (it is then shown as written).
    """
    try:
        return ToolCall(call.name, call.parsed_arguments(), call.id)
    except ValueError:
        return None


def _native_action(message: Message, structure: OutputStructure) -> str:
    """An assistant message with native tool calls, as the agent would have written it: its
    text in the first free section (``thinking``), its calls in the action section written by
    the tool chain. Without a tool chain, or for calls it cannot write, each call on a line
    (``calls NAME with ARGUMENTS``).
    """
    fmt, chain = structure.format, structure.toolchain
    free = _free_sections(structure)
    text = message.text.strip()
    calls = [_native_call(call) for call in message.tool_calls]
    written: str | None = None
    if chain is not None and all(call is not None for call in calls):
        try:
            written = chain.format_calls([call for call in calls if call is not None])
        except Exception:  # noqa: BLE001 - a chain that cannot write them: say them in words
            written = None
    if written is None:
        lines = [f"calls {call.name} with {call.arguments}" for call in message.tool_calls]
        return "\n".join(part for part in [text, *lines] if part)
    assert chain is not None
    sections = [FormattedSection(free[0], text)] if text and free else []
    sections.append(FormattedSection(chain.name, written))
    body = fmt.format_sections(sections)
    return body if not text or free else f"{text}\n{body}"


def _tool_result_text(message: Message) -> str:
    text = message.text.strip()
    if message.is_error and not text.startswith("Error:"):
        text = f"Error: {text}"
    return text


def _native_observation(results: Sequence[Message], fmt: TextFormat) -> str:
    """Tool-result messages (``role: tool``) answering one action, as the format's
    observation: one section per result, named after its tool.
    """
    return fmt.format_observation(
        [
            FormattedSection(section_name_for(message.name or "tool"), _tool_result_text(message))
            for message in results
        ]
    )


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
    results: list[Message] = []
    for message in messages:
        if message.role == "tool":
            results.append(message)
            continue
        if results:
            turns.append(_native_observation(results, fmt))
            results = []
        if message.role == "system":
            continue
        text = message.text.strip()
        if message.role == "assistant" and message.tool_calls:
            text = _native_action(message, structure)
        elif message.role == "user" and not _is_observation(fmt, text):
            text = fmt.format_section(TASK_SECTION, text)
        turns.append(text)
    if results:
        turns.append(_native_observation(results, fmt))
    head = "\n\n".join(part for part in parts if part)
    body = "\n".join(turns)
    return f"{head}\n{body}\n" if head else f"{body}\n"


def _first_task(messages: Sequence[Message], fmt: TextFormat) -> str | None:
    """The text of the conversation's first user message that is not an observation."""
    for message in messages:
        if message.role == "user" and not _is_observation(fmt, message.text):
            return message.text
    return None


_TRANSCRIPT_LABELS = {"user": "User", "assistant": "Assistant"}


def _transcript_text(message: Message) -> str:
    """A message's text for a plain transcript: a note where it had images (the model reading a
    transcript sees none), then a line per native tool call (``[calls NAME with ARGUMENTS]``).
    """
    text = message.text.strip()
    if message.images:
        text = f"{text}\n{IMAGE_OMITTED}".strip()
    calls = [f"[calls {call.name} with {call.arguments}]" for call in message.tool_calls]
    return "\n".join(part for part in [text, *calls] if part)


def _transcript_line(message: Message) -> str:
    """One message of a plain transcript: the system text as it is, ``User: ...``,
    ``Assistant: ...``, ``Tool result of NAME: ...`` (``(error)`` after the name for a failed
    call).
    """
    text = _transcript_text(message)
    if message.role == "system":
        return text
    if message.role == "tool":
        status = " (error)" if message.is_error else ""
        return f"Tool result of {message.name or 'a tool'}{status}: {text}"
    return f"{_TRANSCRIPT_LABELS[message.role]}: {text}"


def _transcript(messages: Sequence[Message]) -> str:
    lines = [_transcript_line(message) for message in messages]
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
        examples: The examples to show; by default :func:`default_examples` for the first
            user message (the task).

    Returns:
        The prompt; the model's continuation is its next output.
    """
    if structure is None:
        return _transcript(messages)
    if not few_shot:
        shown: Sequence[FewShotExample] = ()
    elif examples is not None:
        shown = examples
    else:
        shown = shown_examples(messages, structure)
    return _structured(messages, structure, shown)


def _has_failed_call(messages: Sequence[Message], fmt: TextFormat) -> bool:
    """Whether a call of the conversation failed: a tool message marked as an error, or an
    observation with a line starting ``Error:`` (how a failed call's result is written).
    """
    for message in messages:
        if message.role == "tool" and message.is_error:
            return True
        lines = message.text.splitlines() if message.role == "user" else []
        if any(line.startswith(ERROR_PREFIX) for line in lines) and _is_observation(
            fmt, message.text
        ):
            return True
    return False


def shown_examples(messages: Sequence[Message], structure: OutputStructure) -> list[FewShotExample]:
    """The examples a prompt shows by default: :func:`default_examples` for the first user
    message; once a call of the conversation has failed, only the :data:`RECOVERY_EXAMPLE`
    (when the chain can write it), so that the model, left without the failed call's
    result, finds no example value to give as one.
    """
    chain = structure.toolchain
    if chain is not None and chain.tools and _has_failed_call(messages, structure.format):
        try:
            chain.format_calls([*RECOVERY_EXAMPLE.calls])
            if RECOVERY_EXAMPLE.failed is not None:
                chain.format_calls([*RECOVERY_EXAMPLE.failed.calls])
            return [RECOVERY_EXAMPLE]
        except Exception:  # noqa: BLE001 - a chain that cannot write it: no example
            return []
    return default_examples(structure, task=_first_task(messages, structure.format))


def _made_up_tools(structure: OutputStructure, examples: Sequence[FewShotExample]) -> list[str]:
    """The tools the examples call that are not the agent's (the neutral examples' own)."""
    chain = structure.toolchain
    own = {tool.name for tool in chain.tools} if chain is not None else set()
    called = (
        call.tool
        for example in examples
        for call in [*(example.failed.calls if example.failed else ()), *example.calls]
    )
    return list(dict.fromkeys(name for name in called if name not in own))


def _chat_note(structure: OutputStructure, examples: Sequence[FewShotExample]) -> str:
    """The system text's last lines, saying that the first turns are examples."""
    note = (
        "The first turns of this conversation are worked examples of the format; the real "
        "task comes after them."
    )
    made_up = _made_up_tools(structure, examples)
    if made_up:
        names = ", ".join(made_up)
        note += f" Their tools ({names}) are made up: call only the tools listed above."
    return note


def render_chat(
    messages: Sequence[Message],
    structure: OutputStructure | None,
    *,
    few_shot: bool = True,
    examples: Sequence[FewShotExample] | None = None,
) -> list[Message]:
    """The conversation for a chat (instruct) model: the system message, then each worked
    example as earlier turns (its task as a user message, each output the agent's format
    would hold as an assistant message, each observation as a user message), then
    ``messages`` as they are.

    The examples are those :func:`render_prompt` shows a base model (by default
    :func:`default_examples` for the task: the agent's tools' declared examples, or made-up
    tools whose values no real task can take as its answer); the system text ends with a line
    saying the first turns are examples (and, for made-up tools, that they are not the
    agent's). Without a structure, without ``few_shot`` or without examples, ``messages`` are
    returned unchanged.

    Args:
        messages: The conversation, system message first.
        structure: The agent's output structure.
        few_shot: Show the examples.
        examples: The examples to show; by default :func:`default_examples` for the first
            user message.
    """
    chain = structure.toolchain if structure is not None else None
    if structure is None or not few_shot or chain is None or not chain.tools:
        return list(messages)
    if examples is None:
        examples = shown_examples(messages, structure)
    if not examples:
        return list(messages)
    system = "\n\n".join(
        part
        for part in [message.text.strip() for message in messages if message.role == "system"]
        if part
    )
    turns = [Message.system(f"{system}\n\n{_chat_note(structure, examples)}".strip())]
    for example in examples:
        turns.append(Message.user(example.task))
        for position, block in enumerate(_example_outputs(structure, example)):
            turns.append(Message.assistant(block) if position % 2 == 0 else Message.user(block))
    turns += [message for message in messages if message.role != "system"]
    return turns

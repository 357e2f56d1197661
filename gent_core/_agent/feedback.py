"""Every text the agent writes to the model about its own output: the feedback on an output
it cannot use, the notes added to an observation, and the requests to repair a call.

One module, so that the words the model reads are reviewed (and tuned for small models) in
one place; the run (:mod:`gent_core._agent.run`), the repair of calls
(:mod:`gent_core._agent.repair`) and the notice of repeated calls
(:mod:`gent_core._agent.repeats`) decide *when* to say something, and call these for *what*.
Each text says what was wrong, quotes the output briefly where that helps, and says what to
write instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gent_core._serialize import to_json_data

if TYPE_CHECKING:
    from gent_core._agent.repeats import RepeatedCall

__all__ = [
    "QUOTE_CHARS",
    "answer_ignored",
    "answer_out_of_bounds",
    "call_out_of_bounds",
    "cut_off",
    "images_dropped",
    "no_sections",
    "no_tool_call",
    "no_usable_section",
    "only_first_action",
    "output_limit_reached",
    "quote",
    "quote_end",
    "repair_cut_off",
    "repair_no_action",
    "repair_not_one_call",
    "repair_request",
    "repeat_note",
    "section_cut_off",
    "time_limit_reached",
    "unreadable_section",
]

QUOTE_CHARS = 300
"""The most characters of the model's output quoted back to it."""

_SHOWN_CHARS = 200


def quote(text: str) -> str:
    """The start of ``text`` (stripped), at most :data:`QUOTE_CHARS` characters."""
    text = text.strip()
    if len(text) > QUOTE_CHARS:
        text = text[:QUOTE_CHARS] + " [...]"
    return text or "(nothing)"


def quote_end(text: str) -> str:
    """The end of ``text`` (stripped), at most :data:`QUOTE_CHARS` characters."""
    text = text.strip()
    if len(text) > QUOTE_CHARS:
        text = "[...] " + text[-QUOTE_CHARS:]
    return text or "(nothing)"


# ---------------------------------------------------------------------- an unusable output


def unreadable_section(section: str, kind: str, detail: str) -> str:
    """A component (``kind``: a tool chain's or termination's class) failed on a section."""
    return (
        f"Your {section} section could not be read ({kind} failed: {detail}). Write it "
        "again, as the instructions show."
    )


def output_limit_reached(size: str) -> str:
    """What an output stopped at ``limits.max_output_chars`` reached (``size``: shown)."""
    return f"the most one output may have ({size})"


def time_limit_reached(seconds: str) -> str:
    """What an output stopped at ``timeouts.model`` reached (``seconds``: shown)."""
    return f"the time one output may take ({seconds})"


def cut_off(where: str, what: str, output: str, expected: str) -> str:
    """An output cut off by a bound or the token limit: nothing in it was used.

    Args:
        where: ``" inside the action section"``, or ``""``.
        what: What it reached (``"the token limit"``, :func:`output_limit_reached`...).
        output: The whole output (its end is quoted).
        expected: ``"action or answer"``.
    """
    return (
        f"Your output was cut off{where}: it reached {what} before it ended, so "
        f"nothing in it was run or used. It ended with: {quote_end(output)}\n"
        f"Write the {expected} again, shorter (fewer or smaller calls, less text "
        "before them)."
    )


def no_sections(model_message: str, output: str) -> str:
    """The format found no section: its message, and what the model wrote."""
    return f"{model_message}\nYou wrote: {quote(output)}"


def section_cut_off(section: str, content: str) -> str:
    """A closing section the parser found unfinished."""
    return (
        f"Your output was cut off inside the {section} section, so it was not "
        f"used: {quote(content)}\nWrite the complete section again, shorter if needed."
    )


def no_usable_section(expected: str, output: str, example: str) -> str:
    """Neither an action nor an answer: what was expected, with the format's example."""
    return (
        f"Your output had no usable {expected} section, so nothing happened. "
        f"You wrote: {quote(output)}\n"
        f"Write {expected}, like this:\n{example}"
    )


def answer_out_of_bounds(answer: str, problem: str) -> str:
    """An answer whose value is beyond the bounds of values (too deep, too large...)."""
    return f"Your {answer} cannot be used: {problem}. Write it again within these bounds."


def call_out_of_bounds(number: int, tool: str, problem: str) -> str:
    """A call whose arguments are beyond the bounds of values; nothing ran."""
    return (
        f"Call {number} ({tool!r}) cannot be used: {problem}. Nothing "
        "was run; write the calls again within these bounds."
    )


def no_tool_call(action: str, answer: str) -> str:
    """An action section without a call."""
    return (
        f"Your {action} section had no tool call. Write a call, or give the "
        f"answer in the {answer} section."
    )


# ---------------------------------------------------------------------- notes


def answer_ignored(answer: str, action: str) -> str:
    """An answer written next to an action (the action runs)."""
    return (
        f"Your {answer} was ignored because you also wrote an "
        f"{action}: answer only after you have seen the results."
    )


def only_first_action(action: str) -> str:
    """Several action sections: only the first ran."""
    return f"Only the first {action} section was run; put every call in one."


def images_dropped(count: int) -> str:
    """Images returned by tools that the model cannot be shown."""
    return f"\n\n({count} image(s) returned by tools cannot be shown to this model.)"


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + " [...]"


def repeat_note(
    repeat: RepeatedCall,
    *,
    step: int,
    answer_section: str,
    format_output: Callable[[Any], str],
) -> str:
    """The note the model reads after a repeated call: what it called, when it got that
    result before, the result itself, and what to do instead.

    Args:
        repeat: The repeated call (:func:`gent_core._agent.repeats.find_repeats`).
        step: The current step's number.
        answer_section: The name of the answer section (``"answer"``).
        format_output: Writes a tool's output as observation text (the tool chain's
            :meth:`~gent_core.toolchain.ToolChain.format_output`).
    """
    call = repeat.call
    when = (
        "earlier in this step" if repeat.earlier_step == step else f"in step {repeat.earlier_step}"
    )
    if not repeat.same_result:
        return (
            f"Note: you already called {call.tool} with these arguments {when}; this is its "
            "newer result. Do not call it again for the same thing: if the results you have "
            f"answer the task, write the {answer_section} section now."
        )
    if call.status == "error":
        return (
            f"Note: you already made this exact call to {call.tool} {when}, and it failed the "
            f"same way: {_shorten(call.error or '')} Calling it again will not help: change "
            "the arguments as the error says, or use another tool."
        )
    try:
        result = format_output(call.output)
    except Exception:  # noqa: BLE001 - a chain that cannot write it: show the JSON
        result = json.dumps(to_json_data(call.output), ensure_ascii=False)
    return (
        f"Note: you already called {call.tool} with these arguments {when}, and it returned "
        f"the same result: {_shorten(result)}. Do not call it again: use the result you "
        f"already have. If it answers the task, write the {answer_section} section now."
    )


# ---------------------------------------------------------------------- repairs


def repair_request(position: int, tool: str, problem: str, action: str) -> str:
    """Asks for one failed call (``position``: 0-based) again; the other calls stand."""
    return (
        f"Call {position + 1} ({tool}) could not be used: "
        f"{problem}\nWrite that one call again, correctly, in the "
        f"{action} section; the other calls stand."
    )


def repair_cut_off() -> str:
    """A repair cut off before the call ended."""
    return "Your output was cut off before the call ended; write it shorter."


def repair_no_action(action: str) -> str:
    """A repair without an action section."""
    return f"You wrote no {action} section; write the call there."


def repair_not_one_call(wanted: str) -> str:
    """A repair that was not exactly one call of the failed call's tool."""
    return f"Write exactly one call, of {wanted}."

"""What gent reads in one model output, as the agent reads it (one place for the corpus test
and ``tools/corpus.py``).

The format splits the output into sections; the first action with text is read by the tool
chain (its calls, or the chain's error); without one, the first answer is the answer. The
agent acts on an action whose calls it read, or takes an answer; everything else is
*unusable* (the model gets feedback): no recognised section, a call the chain cannot read, a
closing section reported cut off, an output the back end cut off (finish reason ``length``),
or neither an action nor an answer.

Only the public surface of the formats and chains is used, so the same function reads the
corpus with an older gent (``tools/corpus.py table --before REV``).
"""

from __future__ import annotations

from typing import Any

from gent_core.errors import GentError
from gent_core.formats import TextFormat
from gent_core.toolchain import ToolChain

__all__ = ["CUT_OFF", "NAMES", "chain_tools", "read_output"]

NAMES = ["thinking", "action", "answer"]
"""The sections the agent asks for."""

CUT_OFF = frozenset({"length", "max_tokens", "max_output_tokens", "token_limit"})
"""Finish reasons of an output cut off by the back end's token limit (never used)."""


def chain_tools(name: str | None) -> list[Any]:
    """The tools a case's chain knows: the conformance kit's (by default), the tools of the
    eval suite a collected output came from (``"basic"``, ``"files"``), or none (``"none"``:
    BFCL's functions, which the chains read without knowing them).
    """
    if name == "basic":
        from gent_tools_basic import calculator, current_time

        return [calculator, current_time]
    if name == "files":
        from gent_tools_files import EditFile, ListDir, ReadFile, SearchText, WriteFile

        return [ReadFile(), ListDir(), SearchText(), WriteFile(), EditFile()]
    if name == "none":
        return []
    from gent_core.testing import KIT_TOOLS

    return list(KIT_TOOLS)


def read_output(
    text: str, fmt: TextFormat, chain: ToolChain, finish_reason: str | None = None
) -> dict[str, Any]:
    """What parsing ``text`` gives, in the shape of a corpus case's expected file.

    Returns:
        ``sections`` (names in order), ``truncated`` (the last one reported cut off),
        ``calls`` (``tool`` and ``args``, when the chain read the action), ``answer`` (the
        first answer's trimmed text), ``error`` (the :class:`GentError` raised, not
        serialised) and ``reading``: ``"action"``, ``"answer"`` or ``"unusable"``.
    """
    try:
        parsed = fmt.parse(text, NAMES)
    except GentError as error:
        return {"error": error, "reading": "unusable"}
    found: dict[str, Any] = {
        "sections": [section.name for section in parsed],
        "truncated": parsed.truncated is not None,
    }
    action = next((s for s in parsed if s.name == "action" and s.untrimmed.strip()), None)
    if action is not None:
        try:
            calls = chain.parse(action.untrimmed)
        except GentError as error:
            found["error"] = error
        else:
            found["calls"] = [{"tool": call.tool, "args": call.args} for call in calls]
    answer = parsed.first("answer")
    if answer is not None:
        found["answer"] = answer.content
    found["reading"] = _reading(found, finish_reason)
    return found


def _reading(found: dict[str, Any], finish_reason: str | None) -> str:
    if finish_reason is not None and finish_reason.lower() in CUT_OFF:
        return "unusable"
    if "error" in found or (found["truncated"] and found["sections"][-1] != "thinking"):
        return "unusable"
    if "calls" in found:
        return "action"
    return "answer" if "answer" in found else "unusable"

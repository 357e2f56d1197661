"""The thinking budget: how many characters the free sections (``thinking``) of one output may
take before the action.

A small instruct model told to think first often solves the task in its thinking, at length,
and never acts. With a budget, :class:`ThinkingWatch` follows the streamed output with the
format's own incremental parser and says when the free sections went past it; the model then
stops there, and a continuation request resumes the same output after a bridge that closes the
open free section (the format's closing delimiter) and, without a grammar, opens the action
section. With a grammar, the bridge only closes the thinking, and the continuation is
constrained by the grammar of what is left (the action or the answer), so the model still
chooses between a call and an answer, and still cannot name a tool that does not exist.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gent_core.sections import SectionStarted, TextDelta

if TYPE_CHECKING:
    from gent_core.formats import IncrementalParser
    from gent_core.model import OutputStructure

__all__ = ["ThinkingWatch", "after_thinking", "free_sections"]

_MARK = "\x00gent-open\x00"


def free_sections(structure: OutputStructure) -> list[str]:
    """The sections of ``structure`` that are neither the action nor the answer."""
    special = {part.name for part in (structure.toolchain, structure.termination) if part}
    return [section.name for section in structure.sections if section.name not in special]


def after_thinking(structure: OutputStructure) -> OutputStructure:
    """``structure`` without its free sections: what an output holds once thinking is over
    (its grammar starts at the action or the answer).
    """
    free = set(free_sections(structure))
    return replace(
        structure, sections=[section for section in structure.sections if section.name not in free]
    )


class ThinkingWatch:
    """Follows one streamed output and says when its free sections went past ``budget``
    characters while one of them is still open.

    Args:
        structure: The agent's output structure (its format parses the output).
        budget: Characters the free sections may take.
    """

    def __init__(self, structure: OutputStructure, budget: int) -> None:
        self.structure = structure
        self.budget = budget
        self.free = set(free_sections(structure))
        self.used = 0
        self.open: str | None = None
        self.done = False  # a section that is not free started: nothing more to watch
        names = [section.name for section in structure.sections]
        self._parser: IncrementalParser = structure.format.incremental_parser(names)

    def feed(self, text: str) -> bool:
        """Take the next piece of output; whether the budget is now exceeded inside a free
        section (the caller then stops the output and continues it after :meth:`bridge`).
        """
        if self.done or not text:
            return False
        for event in self._parser.feed(text):
            if isinstance(event, SectionStarted):
                if event.name not in self.free:
                    self.done = True
                    return False
                self.open = event.name
            elif isinstance(event, TextDelta) and event.section in self.free:
                self.used += len(event.text)
        return self.open is not None and self.used > self.budget

    def bridge(self, *, open_action: bool) -> str:
        """The text that ends the open free section and, with ``open_action``, opens the
        action section (the tool chain's), ready for its calls.
        """
        fmt = self.structure.format
        assert self.open is not None  # only called once feed() said so
        closing = fmt.closing_delimiter(self.open) or ""
        text = f"\n{closing}\n" if closing else "\n\n"
        chain = self.structure.toolchain
        if open_action and chain is not None:
            written = fmt.format_section(chain.name, _MARK)
            text += written[: written.find(_MARK)] if _MARK in written else ""
        return text

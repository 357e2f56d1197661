"""The structure of an agent's output: the sections the model writes, the ones that end a
step, the output structure a back end may constrain generation to, and the system prompt that
describes them. Pure: computed from the agent's parts, changing nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from gent_core._config.prompt import PromptParts
from gent_core.formats import TextFormat
from gent_core.model import OutputStructure
from gent_core.sections import Section, TextSection
from gent_core.termination import Termination
from gent_core.toolchain import ToolChain

__all__ = ["THINKING_GUIDANCE", "AgentStructure", "thinking_section"]

THINKING_GUIDANCE = "Your reasoning: what you know so far and what to do next."


def thinking_section(thinking: bool) -> Section | None:
    """The ``thinking`` section asked for before acting, or ``None`` without thinking."""
    return TextSection("thinking", THINKING_GUIDANCE) if thinking else None


@dataclass(frozen=True)
class AgentStructure:
    """The structure of the output the model is asked to write, from the agent's parts.

    Args:
        format: The text format.
        thinking: The thinking section, if asked for.
        toolchain: The tool chain (the action section), if any.
        termination: The answer section.
    """

    format: TextFormat
    thinking: Section | None
    toolchain: ToolChain | None
    termination: Termination

    def sections(self) -> list[Section]:
        """The sections the model is asked to write, in prompt order."""
        sections: list[Section] = []
        if self.thinking is not None:
            sections.append(self.thinking)
        if self.toolchain is not None:
            sections.append(self.toolchain)
        sections.append(self.termination)
        return sections

    def closing_sections(self) -> list[str]:
        """Sections whose end ends a step: the action (if any) and the answer."""
        names = [self.toolchain.name] if self.toolchain is not None else []
        return [*names, self.termination.name]

    def expected_sections_text(self) -> str:
        """``"action or answer"``: what every step must contain."""
        return " or ".join(self.closing_sections())

    def output_structure(self, max_calls: int | None) -> OutputStructure:
        """The expected output structure, for back ends that constrain generation, with at
        most ``max_calls`` calls per action.
        """
        return OutputStructure(
            self.format, self.sections(), self.toolchain, self.termination, max_calls=max_calls
        )

    def system_prompt(self, prompt: PromptParts) -> str:
        """The exact system prompt, ``prompt``'s parts around the format's description."""
        return prompt.build(
            self.format,
            self.sections(),
            thinking=self.thinking.name if self.thinking is not None else None,
            action=self.toolchain.name if self.toolchain is not None else None,
            answer=self.termination.name,
        )

"""The system prompt, built from overridable parts.

The parts, in order: the role (who the model is), the instructions (how to think and act in
steps), the rules, the output format (``format.describe(sections)``, which carries each
section's guidance, the tool chain's call syntax and its list of tools) and free text appended
at the end. Every part can be replaced; rules can also be extended.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gent_core.formats import TextFormat
from gent_core.sections import Section

__all__ = ["DEFAULT_INSTRUCTIONS", "DEFAULT_ROLE", "DEFAULT_RULES", "PromptParts"]

DEFAULT_ROLE = "You are a capable assistant that solves the user's task step by step."

DEFAULT_INSTRUCTIONS = (
    "Work in steps. {lead}either call tools in the {action} section, or, when you know the "
    "result, give the final answer in the {answer} section; never both in the same step. "
    "After an {action} section, stop writing: the tool results come back to you in an "
    "{observation} section, and you continue with the next step. Never write an "
    "{observation} yourself."
)
"""How to think and act, with tools. ``{lead}`` is the thinking instruction."""

DEFAULT_INSTRUCTIONS_NO_TOOLS = "{lead}give the final answer in the {answer} section."
"""How to think and act, without tools."""

_LEAD_TOOLS = "In each step, first reason about what to do next in the {thinking} section. Then "
_LEAD_NO_TOOLS = "First reason about the task in the {thinking} section. Then "

DEFAULT_RULES: tuple[str, ...] = (
    "Call only the tools listed, with the argument names and types they declare.",
    "Read tool results and errors carefully; when a call fails, fix it and try again.",
    "Do not guess results that a tool can compute; call the tool.",
    "When none of the tools fits the task, answer without calling one.",
)


def _fill(template: str, **names: str) -> str:
    """Replace ``{name}`` placeholders, leaving every other brace alone (JSON examples...)."""
    for name, value in names.items():
        template = template.replace("{" + name + "}", value)
    return template


@dataclass(frozen=True)
class PromptParts:
    """Overrides for the parts of the system prompt (``None`` keeps the default).

    Attributes:
        role: Replaces the role paragraph.
        instructions: Replaces the "how to think and act" paragraph. ``{thinking}``,
            ``{action}``, ``{answer}`` and ``{observation}`` are replaced by section names.
        rules: Replaces the default rules when given.
        extra_rules: Appended to the rules.
        append: Free text at the end of the prompt.
    """

    role: str | None = None
    instructions: str | None = None
    rules: Sequence[str] | None = None
    extra_rules: Sequence[str] = field(default_factory=tuple)
    append: str | None = None

    def build(
        self,
        text_format: TextFormat,
        sections: Sequence[Section],
        *,
        thinking: str | None,
        action: str | None,
        answer: str,
    ) -> str:
        """Assemble the system prompt for these sections."""
        names = {
            "thinking": thinking or "thinking",
            "action": action or "action",
            "answer": answer,
            "observation": text_format.observation_name,
        }
        if action is not None:
            default = DEFAULT_INSTRUCTIONS
            lead = _LEAD_TOOLS if thinking is not None else "In each step, "
        else:
            default = DEFAULT_INSTRUCTIONS_NO_TOOLS
            lead = _LEAD_NO_TOOLS if thinking is not None else ""
        instructions = _fill(self.instructions or default, lead=_fill(lead, **names), **names)
        instructions = instructions[:1].upper() + instructions[1:]
        if self.rules is not None:
            rules = list(self.rules)
        else:
            rules = list(DEFAULT_RULES) if action is not None else []
        rules.extend(self.extra_rules)
        parts = [self.role or DEFAULT_ROLE, instructions]
        if rules:
            parts.append("Rules:\n" + "\n".join(f"- {rule}" for rule in rules))
        parts.append(text_format.describe(sections))
        if self.append:
            parts.append(self.append)
        return "\n\n".join(part.strip() for part in parts if part.strip())

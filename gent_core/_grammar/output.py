"""The grammar of a whole agent output, built from its :class:`~gent_core.model.OutputStructure`.

The output is every free section in order (``thinking``...), then either the action section
(the tool chain's calls) or the answer section (the termination's answer)::

    root ::= thinking-section sep (action-section | answer-section)

Every part comes from its component, through the contract; nothing here knows a format,
chain or termination by name:

* the format: ``grammar_section(builder, name, body)`` for each section's delimiters,
  ``grammar_text(builder)`` for free text (``None``: a conservative rule derived from its
  delimiters) and ``grammar_avoid(names)`` for what quoted values must never contain;
* the tool chain: ``grammar_calls(builder)`` (``None``: the action is unconstrained, any text
  that cannot close the section);
* the termination: ``grammar_answer(builder)`` (``None``: the answer is free text).

:func:`agent_grammar` also says, section by section, what constrains it, which ``gent
describe`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gent_core._grammar.builder import Grammar, GrammarBuilder, literal
from gent_core._grammar.sections import GrammarUnsupportedError, conservative_text

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.model import OutputStructure

__all__ = [
    "AgentGrammar",
    "SectionGrammar",
    "agent_grammar",
    "build_agent_grammar",
]


@dataclass(frozen=True)
class SectionGrammar:
    """What constrains one section of the agent's output.

    Attributes:
        section: The section name.
        constrained: ``False`` when the section is unconstrained (any text that cannot
            close it) because its component offers no grammar.
        description: What the section's content must match, and which component says so.
    """

    section: str
    constrained: bool
    description: str


@dataclass(frozen=True)
class AgentGrammar:
    """An agent's grammar and what constrains each section.

    Attributes:
        grammar: The grammar (its text starts with the ``root`` rule).
        sections: One entry per section, in output order.
    """

    grammar: Grammar
    sections: tuple[SectionGrammar, ...]

    @property
    def text(self) -> str:
        """The grammar's GBNF source."""
        return self.grammar.text

    def explain(self) -> list[str]:
        """One line per section: ``"- action: <description>"``."""
        return [f"- {part.section}: {part.description}" for part in self.sections]


def _label(kind: str, component: object) -> str:
    """``"format 'xml' (XMLFormat)"``, ``"tool chain JSONToolChain"``."""
    name = getattr(type(component), "name", None)
    cls = type(component).__name__
    return f"{kind} {name!r} ({cls})" if isinstance(name, str) and name else f"{kind} {cls}"


class _Builder:
    """Builds the rules of one structure and records what constrains each section."""

    def __init__(self, structure: OutputStructure) -> None:
        self.structure = structure
        self.names = [section.name for section in structure.sections]
        text_format = structure.format
        self.builder = GrammarBuilder(
            avoid=text_format.grammar_avoid(self.names), max_calls=structure.max_calls
        )
        self.notes: list[SectionGrammar] = []
        self._conservative: str | None = None
        own = text_format.grammar_text(self.builder)
        if own is not None:
            self.text = self.rule("text", own)
            self.text_note = f"free text, from grammar_text of {_label('format', text_format)}"
        else:
            self.text = self.conservative()
            self.text_note = (
                f"free text, conservative: {_label('format', text_format)} offers no "
                "grammar_text, so the rule only keeps the format's delimiters out"
            )

    def rule(self, name: str, expression: str) -> str:
        """``expression`` as a rule: itself when it already names one, else a new rule."""
        return expression if self.builder.has(expression) else self.builder.add(name, expression)

    @property
    def format(self) -> TextFormat:
        return self.structure.format

    def conservative(self) -> str:
        """Text that cannot open or close a section, from the format's delimiters only."""
        if self._conservative is None:
            self._conservative = conservative_text(self.builder, self.format, self.names)
        return self._conservative

    def section(self, name: str, body: str, constrained: bool, description: str) -> str:
        expression = self.format.grammar_section(self.builder, name, body)
        if expression is None:
            raise GrammarUnsupportedError(
                f"{_label('format', self.format)} offers no grammar for section {name!r}",
                hint="Implement TextFormat.grammar_section() to supply the rule.",
            )
        self.notes.append(SectionGrammar(name, constrained, description))
        return self.builder.add(f"{name}-section", expression)

    def action(self) -> str | None:
        chain = self.structure.toolchain
        if chain is None or not chain.tools:
            return None
        own = chain.grammar_calls(self.builder)
        if own is not None:
            calls = self.rule("calls", own)
            note = (
                "calls of the agent's tools with valid arguments, from grammar_calls of "
                f"{_label('tool chain', chain)}"
            )
            return self.section(chain.name, calls, True, note)
        note = (
            f"unconstrained: {_label('tool chain', chain)} offers no grammar (grammar_calls "
            "returned None), so the section holds any text that cannot close it"
        )
        return self.section(chain.name, self.conservative(), False, note)

    def answer(self) -> str | None:
        termination = self.structure.termination
        if termination is None:
            return None
        own = termination.grammar_answer(self.builder)
        if own is not None:
            body = self.rule("answer-body", own)
            note = f"from grammar_answer of {_label('termination', termination)}"
            return self.section(termination.name, body, True, note)
        return self.section(termination.name, self.text, True, self.text_note)

    def stoppable(self, endings: list[str]) -> list[str]:
        """Let a closing section that ends implicitly be followed by a stop sequence.

        A section without a closing delimiter (a Markdown header's) only ends where the
        output ends; the model's natural continuation is what the format's stop sequences
        catch (the observation header). Allowing it lets generation stop there instead of
        the model being forced to go on (more calls, longer lists) until its token limit.
        """
        closing = [note.section for note in self.notes[-len(endings) :]]
        stops = [stop for stop in self.format.stop_sequences(closing) if stop]
        if not stops:
            return endings
        tail = self.builder.add("stop", " | ".join(literal(stop) for stop in stops))
        return [
            f"{rule} {tail}?" if self.format.closing_delimiter(name) is None else rule
            for rule, name in zip(endings, closing, strict=True)
        ]

    def build(self) -> AgentGrammar:
        structure = self.structure
        special = {part.name for part in (structure.toolchain, structure.termination) if part}
        free = [
            self.section(name, self.text, True, self.text_note)
            for name in self.names
            if name not in special
        ]
        endings = [rule for rule in (self.action(), self.answer()) if rule is not None]
        if not endings:
            raise GrammarUnsupportedError(
                "the structure has neither a tool chain with tools nor a termination"
            )
        endings = self.stoppable(endings)
        sep = self.builder.add("sep", r'"\n" "\n"?')
        parts = [*free, "(" + " | ".join(endings) + ")"]
        grammar = self.builder.build(f" {sep} ".join(parts))
        return AgentGrammar(grammar, tuple(self.notes))


def agent_grammar(structure: OutputStructure) -> AgentGrammar:
    """Build the grammar every output of an agent with ``structure`` must match, and say what
    constrains each section.

    Raises:
        GrammarUnsupportedError: When the format cannot delimit a section, or the structure
            has neither a tool chain with tools nor a termination.
        SchemaGrammarError: When a tool's or the answer's JSON Schema cannot be converted.
        GentError: Whatever a component's grammar method raises.
    """
    return _Builder(structure).build()


def build_agent_grammar(structure: OutputStructure) -> Grammar:
    """The grammar of :func:`agent_grammar` (for callers that need only the grammar)."""
    return agent_grammar(structure).grammar

"""The grammar of a whole agent output, built from its :class:`~gent_core.model.OutputStructure`.

The output is every free section in order (``thinking``...), then either the action section
(the tool chain's call syntax, restricted to the agent's tools and their argument schemas) or
the answer section (free text, or the JSON termination's schema)::

    root ::= thinking-section sep (action-section | answer-section)

Each part asks its component first and falls back to gent's built-in rules:

* the format: ``grammar_section(builder, name, body)`` and ``grammar_text(builder)``; the
  fallback derives section delimiters from ``format_section`` and uses the built-in free-text
  rules for the ``xml`` and ``markdown`` formats (a conservative rule for others);
* the tool chain: ``grammar_calls(builder)``; the fallback knows the ``json`` and ``yaml``
  call syntaxes;
* the termination: ``grammar_answer(builder)``; the fallback handles the ``json`` termination
  (its JSON Schema) and treats every other answer as free text.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from gent_core.errors import GentError
from gent_core.grammar.builder import Grammar, GrammarBuilder
from gent_core.grammar.calls import json_calls, yaml_calls
from gent_core.grammar.json_schema import JSONSchemaConverter
from gent_core.grammar.sections import (
    GrammarUnsupportedError,
    generic_text,
    markdown_text,
    section_delimiters,
    section_rule,
    xml_text,
)

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.model import OutputStructure
    from gent_core.termination import Termination
    from gent_core.toolchain import ToolChain

__all__ = ["build_agent_grammar", "chain_syntax", "format_name"]


def format_name(text_format: TextFormat) -> str:
    """The format's component name (``"xml"``), or ``""`` when it has none."""
    return str(getattr(type(text_format), "name", "") or "")


def chain_syntax(chain: ToolChain) -> str | None:
    """Guess whether ``chain`` reads ``"json"`` or ``"yaml"`` calls (``None`` when unknown).

    A chain may say it with a ``syntax`` attribute; otherwise its package (``gent_json``,
    ``gent_yaml``) or class name decides.
    """
    declared = getattr(chain, "syntax", None)
    if isinstance(declared, str) and declared in ("json", "yaml"):
        return declared
    cls = type(chain)
    package = cls.__module__.split(".", 1)[0]
    for syntax in ("json", "yaml"):
        if package == f"gent_{syntax}" or syntax in cls.__name__.lower():
            return syntax
    return None


def _text_rule(builder: GrammarBuilder, structure: OutputStructure) -> str:
    custom = structure.format.grammar_text(builder)
    if custom is not None:
        return builder.add("text", custom)
    name = format_name(structure.format)
    if name == "xml":
        return xml_text(builder)
    if name == "markdown":
        return markdown_text(builder)
    delimiters = [
        part
        for section in structure.sections
        for part in section_delimiters(structure.format, section.name)
    ]
    return generic_text(builder, delimiters)


def _calls_rule(builder: GrammarBuilder, chain: ToolChain, xml_safe: bool) -> str:
    custom = chain.grammar_calls(builder)
    if custom is not None:
        return builder.add("calls", custom)
    syntax = chain_syntax(chain)
    if syntax == "json":
        return json_calls(builder, chain.tools, xml_safe=xml_safe)
    if syntax == "yaml":
        return yaml_calls(builder, chain.tools, xml_safe=xml_safe)
    raise GrammarUnsupportedError(
        f"no grammar for the call syntax of {type(chain).__name__}",
        hint="Implement ToolChain.grammar_calls() to supply the rule.",
    )


def _answer_rule(
    builder: GrammarBuilder, termination: Termination, text: str, xml_safe: bool
) -> str:
    custom = termination.grammar_answer(builder)
    if custom is not None:
        return builder.add("answer-body", custom)
    from gent_core.terminations.typed import JSONTermination

    if isinstance(termination, JSONTermination):
        converter = JSONSchemaConverter(builder, xml_safe=xml_safe)
        return converter.convert(termination.json_schema, "answer-json")
    return text


def build_agent_grammar(structure: OutputStructure) -> Grammar:
    """Build the GBNF grammar every output of an agent with ``structure`` must match.

    Args:
        structure: The agent's format, sections, tool chain and termination.

    Returns:
        The grammar (its text starts with the ``root`` rule).

    Raises:
        GrammarUnsupportedError: When a part offers no grammar and gent has no fallback.
        SchemaGrammarError: When a tool's or the answer's JSON Schema cannot be converted.
    """
    builder = GrammarBuilder()
    text_format = structure.format
    chain = (
        structure.toolchain
        if structure.toolchain is not None and structure.toolchain.tools
        else None
    )
    termination = structure.termination
    special = {part.name for part in (chain, termination) if part is not None}
    if structure.toolchain is not None:
        special.add(structure.toolchain.name)
    text = _text_rule(builder, structure)
    xml_safe = format_name(text_format) == "xml"
    free = [
        section_rule(builder, text_format, section.name, text)
        for section in structure.sections
        if section.name not in special
    ]
    endings: list[str] = []
    if chain is not None:
        calls = _calls_rule(builder, chain, xml_safe)
        endings.append(section_rule(builder, text_format, chain.name, calls))
    if termination is not None:
        answer = _answer_rule(builder, termination, text, xml_safe)
        endings.append(section_rule(builder, text_format, termination.name, answer))
    if not endings:
        raise GrammarUnsupportedError("the structure has neither a tool chain nor a termination")
    sep = builder.add("sep", r'"\n" "\n"?')
    parts = [*free, "(" + " | ".join(endings) + ")"]
    return builder.build(f" {sep} ".join(parts))


def checked_agent_grammar(structure: OutputStructure, logger: logging.Logger) -> str | None:
    """Build the agent's grammar and check it with :func:`check_gbnf`, for back ends that
    would rather generate unconstrained than fail.

    Returns:
        The grammar text, or ``None`` (after a warning on ``logger``) when it cannot be built
        or fails the check.
    """
    from gent_core.grammar.check import check_gbnf

    try:
        text = build_agent_grammar(structure).text
        check_gbnf(text)
    except GentError as error:
        logger.warning("no grammar for this agent, generating unconstrained: %s", error)
        return None
    return text

"""GBNF grammars that constrain a model's output to the agent's structure.

Pure Python (no llama.cpp import), and knowing no format, chain or termination by name:

* the toolkit components use to write their rules: :class:`GrammarBuilder` (named rules,
  escaping), :class:`JSONSchemaConverter` (JSON Schema to GBNF, JSON and YAML-flow
  flavours), string and free-text rules that keep a format's delimiters out
  (:mod:`gent_core._grammar.strings`), section delimiters derived from a format
  (:mod:`gent_core._grammar.sections`) and the call helpers of :mod:`gent_core._grammar.calls`;
* :func:`agent_grammar` / :func:`build_agent_grammar`, the grammar of a whole output, put
  together from the components' own ``grammar_*`` methods;
* :func:`check_gbnf`, a checker that rejects what llama.cpp's grammar parser rejects,
  :func:`matches`, a pure-Python recognizer, and :func:`~gent_core._grammar.sample.sample`,
  random texts of a grammar (for tests).
"""

from gent_core._grammar.builder import Grammar, GrammarBuilder, char_class, literal, rule_name
from gent_core._grammar.calls import MAX_CALLS, arguments_schema, repeat_calls
from gent_core._grammar.check import GrammarSyntaxError, check_gbnf
from gent_core._grammar.json_schema import (
    DEFAULT_MAX_ITEMS,
    JSONSchemaConverter,
    SchemaGrammarError,
)
from gent_core._grammar.match import GrammarMatcher, matches
from gent_core._grammar.output import (
    AgentGrammar,
    SectionGrammar,
    agent_grammar,
    build_agent_grammar,
)
from gent_core._grammar.sections import (
    GrammarUnsupportedError,
    conservative_text,
    delimited_section,
    section_delimiters,
)
from gent_core._grammar.strings import StringGrammarError, free_text, string_char

__all__ = [
    "DEFAULT_MAX_ITEMS",
    "MAX_CALLS",
    "AgentGrammar",
    "Grammar",
    "GrammarBuilder",
    "GrammarMatcher",
    "GrammarSyntaxError",
    "GrammarUnsupportedError",
    "JSONSchemaConverter",
    "SchemaGrammarError",
    "SectionGrammar",
    "StringGrammarError",
    "agent_grammar",
    "arguments_schema",
    "build_agent_grammar",
    "char_class",
    "check_gbnf",
    "conservative_text",
    "delimited_section",
    "free_text",
    "literal",
    "matches",
    "repeat_calls",
    "rule_name",
    "section_delimiters",
    "string_char",
]

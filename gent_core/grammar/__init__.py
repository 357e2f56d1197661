"""GBNF grammars that constrain a model's output to the agent's structure.

Pure Python (no llama.cpp import): a :class:`GrammarBuilder` collecting named rules, a
JSON-Schema-to-GBNF converter (JSON and YAML-flow flavours), rules for JSON and YAML tool
calls, section rules derived from a format, :func:`build_agent_grammar` for a whole output,
:func:`check_gbnf`, a checker that rejects what llama.cpp's grammar parser rejects, and
:func:`matches`, a pure-Python recognizer for tests.
"""

from gent_core.grammar.agent import (
    build_agent_grammar,
    chain_syntax,
    checked_agent_grammar,
    format_name,
)
from gent_core.grammar.builder import Grammar, GrammarBuilder, char_class, literal, rule_name
from gent_core.grammar.calls import json_calls, yaml_calls
from gent_core.grammar.check import GrammarSyntaxError, check_gbnf
from gent_core.grammar.json_schema import JSONSchemaConverter, SchemaGrammarError
from gent_core.grammar.match import GrammarMatcher, matches
from gent_core.grammar.sections import GrammarUnsupportedError, section_delimiters

__all__ = [
    "Grammar",
    "GrammarBuilder",
    "GrammarMatcher",
    "GrammarSyntaxError",
    "GrammarUnsupportedError",
    "JSONSchemaConverter",
    "SchemaGrammarError",
    "build_agent_grammar",
    "checked_agent_grammar",
    "chain_syntax",
    "char_class",
    "check_gbnf",
    "format_name",
    "json_calls",
    "literal",
    "matches",
    "rule_name",
    "section_delimiters",
    "yaml_calls",
]

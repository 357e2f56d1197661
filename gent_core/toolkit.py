"""The toolkit for plugin authors: the building blocks the shipped plugins are made of.

Everything a format, tool chain, termination, tool package, model back end or command needs
beyond the contracts, in one namespace (names load lazily, so importing it costs nothing):

* **text scanning**: section attributes, incremental section collection, and model text quoted
  on one line for messages (:class:`SectionCollector`, :func:`parse_attributes`,
  :func:`quote_start`, :func:`snippet_at`...);
* **call guidance**: the block every tool chain's prompt guidance shares and the calls it
  shows (:func:`call_guidance`, :func:`guidance_calls`, :data:`NEUTRAL_CALLS`...); readers of
  calls live with their tool chains (JSON calls in ``gent_json``, which other chains may
  depend on);
* **grammar building**: GBNF for constrained generation (:class:`GrammarBuilder`,
  :class:`JSONSchemaConverter`, :func:`arguments_schema`, :func:`repeat_calls`...);
* **schema helpers**: cleaning, following ``$ref``, validating, example arguments
  (:func:`clean_schema`, :func:`follow_refs`, :class:`SchemaValidator`...);
* **values and bounds**: strict JSON, the bounds every value from outside obeys, bounded
  readers of JSON, YAML, files and lines, regular expressions with a deadline
  (:func:`dumps_json`, :func:`check_value`, :func:`read_json`, :func:`bounded_lines`,
  :func:`compile_pattern`...);
* **prompt rendering**: the plain transcript prompt of base models (:func:`render_prompt`),
  and a chat model's conversation with worked examples as earlier turns (:func:`render_chat`);
* **running and writing**: executing calls outside an agent (:func:`execute_calls`), a
  command's output with gent's redaction and terminal safety (:class:`Output`,
  :class:`Redactor`), a documentation page's address for messages (:func:`docs_url`);
* **the workspace**: paths confined to the working directory, judged link by link and
  opened without following a link (:class:`Workspace`, :class:`Target`,
  :class:`PathRejectedError`...), as the file tools and the clipboard use them;
* **options and exports**: a component's options model (:func:`parse_options_model`) and
  lazy package namespaces (:func:`load_export`, :func:`export_names`);
* **configuration files and overrides**: YAML documents with their marks
  (:func:`read_document`), config entries (:class:`ComponentSpec`, :class:`DeclareSpec`,
  :data:`ToolEntry`...), ``KEY=V1,V2`` assignments and dotted keys set in a file's data
  (:func:`parse_assignment`, :func:`set_config_key`), the built-in agent's YAML
  (:func:`default_agent_yaml`) and the problems a config error lists
  (:func:`problems_from_validation_error`, :func:`unknown_problem`, :func:`format_key`);
* **files, imports and transcripts**: a relative path judged on its text
  (:func:`relative_path_problem`), what is at a path from outside, asked without a traceback
  (:func:`probe_path`), ``module:name`` imports from given folders
  (:func:`import_object`, :func:`import_search_path`), a run's JSONL transcript read back
  (:func:`load_transcript`);
* **run records kept elsewhere**, for a run history such as gent-history: the lines a
  transcript holds, built and read back in one place (:func:`run_line`, :func:`step_line`,
  :func:`end_line`, :func:`resume_line`, :func:`transcript_from_records`, :class:`Transcript`,
  :class:`TranscriptError`), the lock a transcript's writer holds (:func:`lock_file`), the
  messages earlier runs leave for the next one (:func:`conversation_messages`), the deepest
  nesting a record holds (:data:`OUTPUT_MAX_DEPTH`) and the user's data directory
  (:func:`user_dir`);
* **command-line frame** for plugin commands: gent's help formatter (:class:`HelpFormatter`),
  running a command's coroutine with gent's Ctrl-C handling (:func:`run_command`), terminals
  and colour (:func:`is_terminal`, :func:`rich_console`), a usage error
  (:class:`UsageError`) and the built-in agent's description (:func:`default_agent_help`).

Only the names here, in :mod:`gent_core`, in the contract modules and in
:mod:`gent_core.testing` are public: modules whose names start with ``_`` may change in any
release, and ``tests/architecture/test_public_surface.py`` keeps the shipped plugins off them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    # text scanning
    "EMPTY_ATTRIBUTES": "gent_core._textscan",
    "SectionCollector": "gent_core._textscan",
    "attribute_pairs": "gent_core._textscan",
    "format_attributes": "gent_core._textscan",
    "name_table": "gent_core._textscan",
    "parse_attributes": "gent_core._textscan",
    "line_column": "gent_core._textscan",
    "quote_end": "gent_core._textscan",
    "quote_start": "gent_core._textscan",
    "snippet_at": "gent_core._textscan",
    # call guidance
    "NEUTRAL_CALL": "gent_core._guidance",
    "NEUTRAL_CALLS": "gent_core._guidance",
    "call_guidance": "gent_core._guidance",
    "for_example": "gent_core._guidance",
    "guidance_calls": "gent_core._guidance",
    # grammar building
    "MAX_CALLS": "gent_core._grammar",
    "GrammarBuilder": "gent_core._grammar",
    "JSONSchemaConverter": "gent_core._grammar",
    "arguments_schema": "gent_core._grammar",
    "build_agent_grammar": "gent_core._grammar",
    "check_gbnf": "gent_core._grammar",
    "checked_agent_grammar": "gent_core._grammar",
    "free_text": "gent_core._grammar",
    "literal": "gent_core._grammar",
    "repeat_calls": "gent_core._grammar",
    "CallableTool": "gent_core._grammar.calls",
    "GrammarMatcher": "gent_core._grammar.match",
    "matches": "gent_core._grammar.match",
    "sample": "gent_core._grammar.sample",
    # schema helpers
    "SchemaValidator": "gent_core.tools._validator",
    "TOOL_NAME_PATTERN": "gent_core.tools._function",
    "check_tool_name": "gent_core.tools._function",
    "arguments_error": "gent_core.tools._arguments",
    "not_an_object_problem": "gent_core.tools._arguments",
    "clean_schema": "gent_core.tools._schema",
    "describe_signature": "gent_core.tools._describe",
    "example_arguments": "gent_core._schema_examples",
    "follow_refs": "gent_core._schema_refs",
    # values and bounds
    "MAX_DEPTH": "gent_core._serialize",
    "MAX_INT_DIGITS": "gent_core._serialize",
    "ValueBoundsError": "gent_core._serialize",
    "check_value": "gent_core._serialize",
    "dumps_json": "gent_core._serialize",
    "to_json_data": "gent_core._serialize",
    "to_jsonable": "gent_core._serialize",
    "write_json": "gent_core._serialize",
    "CONVERSATION_FILE": "gent_core._bounded",
    "read_file": "gent_core._bounded",
    "read_json": "gent_core._bounded",
    "read_stream": "gent_core._bounded",
    "read_yaml": "gent_core._bounded",
    "LineTooLongError": "gent_core._lines",
    "bounded_lines": "gent_core._lines",
    "BoundedPattern": "gent_core._regexes",
    "PatternError": "gent_core._regexes",
    "PatternTimeoutError": "gent_core._regexes",
    "compile_pattern": "gent_core._regexes",
    "pattern_timeout": "gent_core._regexes",
    "set_pattern_timeout": "gent_core._regexes",
    # prompt rendering and observations
    "TRANSCRIPT_STOP": "gent_core._base_prompt",
    "default_examples": "gent_core._base_prompt",
    "render_chat": "gent_core._base_prompt",
    "render_prompt": "gent_core._base_prompt",
    "section_name_for": "gent_core._observation",
    "truncate_output": "gent_core._observation",
    # running and writing
    "execute_action": "gent_core._execution",
    "execute_calls": "gent_core._execution",
    "Output": "gent_core._cli.output",
    "Redactor": "gent_core._config.secrets",
    "docs_url": "gent_core._docs_url",
    # the workspace: paths confined to the working directory, opened without races
    "MAX_SYMLINK_HOPS": "gent_core._workspace",
    "Target": "gent_core._workspace",
    "Workspace": "gent_core._workspace",
    "describe_mode": "gent_core._workspace",
    "same_file": "gent_core._workspace",
    "RELATIVE_PATH_HINT": "gent_core._file_errors",
    "FileToolError": "gent_core._file_errors",
    "PathRejectedError": "gent_core._file_errors",
    "BINARY": "gent_core._open_flags",
    "CLOEXEC": "gent_core._open_flags",
    "DIR_FLAGS": "gent_core._open_flags",
    "NOFOLLOW": "gent_core._open_flags",
    "USE_DIR_FD": "gent_core._open_flags",
    # options and exports
    "parse_options_model": "gent_core._config.options",
    "export_names": "gent_core._lazy",
    "load_export": "gent_core._lazy",
    # configuration files and overrides
    "Document": "gent_core._config.yamldoc",
    "KeyPath": "gent_core._config.yamldoc",
    "Mark": "gent_core._config.yamldoc",
    "YAMLSyntaxError": "gent_core._config.yamldoc",
    "read_document": "gent_core._config.yamldoc",
    "ComponentSpec": "gent_core._config.models",
    "DeclareSpec": "gent_core._config.models",
    "ToolEntry": "gent_core._config.models",
    "ToolsetSpec": "gent_core._config.models",
    "default_agent_yaml": "gent_core._config.default",
    "parse_assignment": "gent_core._config.overrides",
    "set_config_key": "gent_core._config.overrides",
    "show_value": "gent_core._config.overrides",
    "format_key": "gent_core._config.loading",
    "problems_from_validation_error": "gent_core._config.problems",
    "unknown_problem": "gent_core._config.problems",
    # files, imports and transcripts
    "SUITE_FILE": "gent_core._bounded",
    "TIMEOUT_VARIABLE": "gent_core._regexes",
    "search": "gent_core._regexes",
    "relative_path_problem": "gent_core._observation",
    "import_object": "gent_core._importing",
    "PathProbe": "gent_core._path_probe",
    "probe_path": "gent_core._path_probe",
    "import_search_path": "gent_core._importing",
    "load_transcript": "gent_core._transcript.lines",
    # run records kept elsewhere (a run history): the transcript's lines, its file lock,
    # the conversation they stand for, the user's data directory
    "Transcript": "gent_core._transcript.lines",
    "TranscriptError": "gent_core._transcript.lines",
    "end_line": "gent_core._transcript.lines",
    "resume_line": "gent_core._transcript.lines",
    "run_line": "gent_core._transcript.lines",
    "step_line": "gent_core._transcript.lines",
    "transcript_from_records": "gent_core._transcript.lines",
    "lock_file": "gent_core._transcript.writer",
    "conversation_messages": "gent_core._agent.replay",
    "OUTPUT_MAX_DEPTH": "gent_core._serialize",
    "user_dir": "gent_core._user_dirs",
    # the command-line frame
    "HelpFormatter": "gent_core._cli.helpformat",
    "UsageError": "gent_core._cli.errors",
    "default_agent_help": "gent_core._cli.agentconfig",
    "is_terminal": "gent_core._cli.colors",
    "rich_console": "gent_core._cli.colors",
    "run_command": "gent_core._cli.interrupt",
    # suites and reports (gent-eval)
    "read_text_file": "gent_core._bounded",
    "syntax_problem": "gent_core._config.loading",
    "format_tokens": "gent_core.records",
}

if TYPE_CHECKING:
    from gent_core._agent.replay import conversation_messages
    from gent_core._base_prompt import (
        TRANSCRIPT_STOP,
        default_examples,
        render_chat,
        render_prompt,
    )
    from gent_core._bounded import (
        CONVERSATION_FILE,
        SUITE_FILE,
        read_file,
        read_json,
        read_stream,
        read_text_file,
        read_yaml,
    )
    from gent_core._cli.agentconfig import default_agent_help
    from gent_core._cli.colors import is_terminal, rich_console
    from gent_core._cli.errors import UsageError
    from gent_core._cli.helpformat import HelpFormatter
    from gent_core._cli.interrupt import run_command
    from gent_core._cli.output import (
        Output,
    )
    from gent_core._config.default import default_agent_yaml
    from gent_core._config.loading import format_key, syntax_problem
    from gent_core._config.models import ComponentSpec, DeclareSpec, ToolEntry, ToolsetSpec
    from gent_core._config.options import (
        parse_options_model,
    )
    from gent_core._config.overrides import parse_assignment, set_config_key, show_value
    from gent_core._config.problems import problems_from_validation_error, unknown_problem
    from gent_core._config.secrets import (
        Redactor,
    )
    from gent_core._config.yamldoc import Document, KeyPath, Mark, YAMLSyntaxError, read_document
    from gent_core._docs_url import (
        docs_url,
    )
    from gent_core._execution import (
        execute_action,
        execute_calls,
    )
    from gent_core._file_errors import (
        RELATIVE_PATH_HINT,
        FileToolError,
        PathRejectedError,
    )
    from gent_core._grammar import (
        MAX_CALLS,
        GrammarBuilder,
        JSONSchemaConverter,
        arguments_schema,
        build_agent_grammar,
        check_gbnf,
        checked_agent_grammar,
        free_text,
        literal,
        repeat_calls,
    )
    from gent_core._grammar.calls import (
        CallableTool,
    )
    from gent_core._grammar.match import (
        GrammarMatcher,
        matches,
    )
    from gent_core._grammar.sample import (
        sample,
    )
    from gent_core._guidance import (
        NEUTRAL_CALL,
        NEUTRAL_CALLS,
        call_guidance,
        for_example,
        guidance_calls,
    )
    from gent_core._importing import import_object, import_search_path
    from gent_core._lines import (
        LineTooLongError,
        bounded_lines,
    )
    from gent_core._observation import (
        relative_path_problem,
        section_name_for,
        truncate_output,
    )
    from gent_core._open_flags import (
        BINARY,
        CLOEXEC,
        DIR_FLAGS,
        NOFOLLOW,
        USE_DIR_FD,
    )
    from gent_core._regexes import (
        TIMEOUT_VARIABLE,
        BoundedPattern,
        PatternError,
        PatternTimeoutError,
        compile_pattern,
        pattern_timeout,
        search,
        set_pattern_timeout,
    )
    from gent_core._schema_examples import (
        example_arguments,
    )
    from gent_core._schema_refs import (
        follow_refs,
    )
    from gent_core._serialize import (
        MAX_DEPTH,
        MAX_INT_DIGITS,
        OUTPUT_MAX_DEPTH,
        ValueBoundsError,
        check_value,
        dumps_json,
        to_json_data,
        to_jsonable,
        write_json,
    )
    from gent_core._textscan import (
        EMPTY_ATTRIBUTES,
        SectionCollector,
        attribute_pairs,
        format_attributes,
        line_column,
        name_table,
        parse_attributes,
        quote_end,
        quote_start,
        snippet_at,
    )
    from gent_core._transcript.lines import (
        Transcript,
        TranscriptError,
        end_line,
        load_transcript,
        resume_line,
        run_line,
        step_line,
        transcript_from_records,
    )
    from gent_core._transcript.writer import lock_file
    from gent_core._user_dirs import user_dir
    from gent_core._workspace import (
        MAX_SYMLINK_HOPS,
        Target,
        Workspace,
        describe_mode,
        same_file,
    )
    from gent_core.records import format_tokens
    from gent_core.tools._arguments import (
        arguments_error,
        not_an_object_problem,
    )
    from gent_core.tools._describe import (
        describe_signature,
    )
    from gent_core.tools._function import (
        TOOL_NAME_PATTERN,
        check_tool_name,
    )
    from gent_core.tools._schema import (
        clean_schema,
    )
    from gent_core.tools._validator import (
        SchemaValidator,
    )

__all__ = [
    "BINARY",
    "BoundedPattern",
    "CLOEXEC",
    "CONVERSATION_FILE",
    "CallableTool",
    "ComponentSpec",
    "DIR_FLAGS",
    "DeclareSpec",
    "Document",
    "EMPTY_ATTRIBUTES",
    "FileToolError",
    "GrammarBuilder",
    "GrammarMatcher",
    "HelpFormatter",
    "JSONSchemaConverter",
    "KeyPath",
    "LineTooLongError",
    "MAX_CALLS",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_SYMLINK_HOPS",
    "Mark",
    "NEUTRAL_CALL",
    "NEUTRAL_CALLS",
    "NOFOLLOW",
    "OUTPUT_MAX_DEPTH",
    "Output",
    "PathRejectedError",
    "PatternError",
    "PatternTimeoutError",
    "RELATIVE_PATH_HINT",
    "Redactor",
    "SUITE_FILE",
    "SchemaValidator",
    "SectionCollector",
    "TIMEOUT_VARIABLE",
    "TOOL_NAME_PATTERN",
    "TRANSCRIPT_STOP",
    "Target",
    "ToolEntry",
    "ToolsetSpec",
    "Transcript",
    "TranscriptError",
    "USE_DIR_FD",
    "UsageError",
    "ValueBoundsError",
    "Workspace",
    "YAMLSyntaxError",
    "arguments_error",
    "arguments_schema",
    "attribute_pairs",
    "bounded_lines",
    "build_agent_grammar",
    "call_guidance",
    "check_gbnf",
    "check_tool_name",
    "check_value",
    "checked_agent_grammar",
    "clean_schema",
    "compile_pattern",
    "conversation_messages",
    "default_agent_help",
    "default_agent_yaml",
    "default_examples",
    "describe_mode",
    "describe_signature",
    "docs_url",
    "dumps_json",
    "end_line",
    "example_arguments",
    "execute_action",
    "execute_calls",
    "export_names",
    "follow_refs",
    "for_example",
    "format_attributes",
    "format_key",
    "format_tokens",
    "free_text",
    "guidance_calls",
    "import_object",
    "import_search_path",
    "is_terminal",
    "line_column",
    "literal",
    "load_export",
    "load_transcript",
    "lock_file",
    "matches",
    "name_table",
    "not_an_object_problem",
    "parse_assignment",
    "parse_attributes",
    "parse_options_model",
    "pattern_timeout",
    "problems_from_validation_error",
    "quote_end",
    "quote_start",
    "read_document",
    "read_file",
    "read_json",
    "read_stream",
    "read_text_file",
    "read_yaml",
    "relative_path_problem",
    "render_chat",
    "render_prompt",
    "repeat_calls",
    "resume_line",
    "rich_console",
    "run_command",
    "run_line",
    "same_file",
    "sample",
    "search",
    "section_name_for",
    "set_config_key",
    "set_pattern_timeout",
    "show_value",
    "snippet_at",
    "step_line",
    "syntax_problem",
    "to_json_data",
    "to_jsonable",
    "transcript_from_records",
    "truncate_output",
    "unknown_problem",
    "user_dir",
    "write_json",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())

"""Bounds on what comes from outside: strict JSON, bounded readers, patterns with a deadline.

* values: strict JSON and the depth and size every value obeys (:func:`dumps_json`,
  :func:`write_json`, :func:`to_jsonable`, :func:`to_json_data`, :func:`check_value`,
  :class:`ValueBoundsError`, :data:`MAX_DEPTH`, :data:`MAX_INT_DIGITS`, and
  :data:`OUTPUT_MAX_DEPTH`, the depth of a record that holds such values);
* readers: JSON, files, streams and lines read within a size (:func:`read_json`,
  :func:`read_file`, :func:`read_text_file`, :func:`read_stream`, :func:`bounded_lines`,
  :class:`LineTooLongError`; a plugin names its own kind of file and its limit with
  :class:`FileKind`);
* patterns from outside matched with a deadline (:func:`compile_pattern`, :func:`search`,
  :class:`BoundedPattern`, :class:`PatternError`, :class:`PatternTimeoutError`,
  :func:`pattern_timeout`, :func:`set_pattern_timeout`).

A toolkit with a floor: it imports only the foundation (values and errors), never the
command line, the agent loop or the configuration. Names load lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    # values
    "MAX_DEPTH": "gent_core._serialize",
    "MAX_INT_DIGITS": "gent_core._serialize",
    "OUTPUT_MAX_DEPTH": "gent_core._serialize",
    "ValueBoundsError": "gent_core._serialize",
    "check_value": "gent_core._serialize",
    "dumps_json": "gent_core._serialize",
    "to_json_data": "gent_core._serialize",
    "to_jsonable": "gent_core._serialize",
    "write_json": "gent_core._serialize",
    # readers
    "FileKind": "gent_core._bounded",
    "read_file": "gent_core._bounded",
    "read_json": "gent_core._bounded",
    "read_stream": "gent_core._bounded",
    "read_text_file": "gent_core._bounded",
    "LineTooLongError": "gent_core._lines",
    "bounded_lines": "gent_core._lines",
    # patterns with a deadline
    "BoundedPattern": "gent_core._regexes",
    "PatternError": "gent_core._regexes",
    "PatternTimeoutError": "gent_core._regexes",
    "compile_pattern": "gent_core._regexes",
    "pattern_timeout": "gent_core._regexes",
    "search": "gent_core._regexes",
    "set_pattern_timeout": "gent_core._regexes",
}

if TYPE_CHECKING:
    from gent_core._bounded import (
        FileKind,
        read_file,
        read_json,
        read_stream,
        read_text_file,
    )
    from gent_core._lines import (
        LineTooLongError,
        bounded_lines,
    )
    from gent_core._regexes import (
        BoundedPattern,
        PatternError,
        PatternTimeoutError,
        compile_pattern,
        pattern_timeout,
        search,
        set_pattern_timeout,
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

__all__ = [
    "BoundedPattern",
    "FileKind",
    "LineTooLongError",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "OUTPUT_MAX_DEPTH",
    "PatternError",
    "PatternTimeoutError",
    "ValueBoundsError",
    "bounded_lines",
    "check_value",
    "compile_pattern",
    "dumps_json",
    "pattern_timeout",
    "read_file",
    "read_json",
    "read_stream",
    "read_text_file",
    "search",
    "set_pattern_timeout",
    "to_json_data",
    "to_jsonable",
    "write_json",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())

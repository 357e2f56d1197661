"""gent-bfcl: the Berkeley Function Calling Leaderboard (BFCL), read and judged by gent's code.

* :mod:`gent_bfcl.data`: BFCL's tasks and possible answers, from the installed ``bfcl-eval``
  (found without importing it) or a folder; deterministic selection.
* :mod:`gent_bfcl.schema`, :mod:`gent_bfcl.names`: BFCL's schema dialect as JSON Schema, and
  BFCL function names as gent tool names and back.
* :mod:`gent_bfcl.checker` (with :mod:`gent_bfcl.values`): BFCL's AST rules, judging parsed
  calls with a failure kind (:mod:`gent_bfcl.verdict`).
* :mod:`gent_bfcl.prompt`, :mod:`gent_bfcl.pycalls`, :mod:`gent_bfcl.runner`: BFCL's own
  prompt mode (its system prompt and decoder) as a baseline for any gent model;
  :mod:`gent_bfcl.native`: native function calling (the server's ``tools`` parameter) as a
  baseline for a model behind an OpenAI-compatible server; :mod:`gent_bfcl.baselines`: which
  of them ``gent eval bfcl:`` runs.

Parts are re-implemented from or copied out of bfcl-eval (Apache-2.0): see NOTICE.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core import export_names, load_export

# Names load lazily: gent loads this package to find its plugin module, and the checker,
# the data reader and the tool machinery they import are needed only when BFCL runs.
_EXPORTS: dict[str, str] = {
    "CATEGORIES": "gent_bfcl.categories",
    "check_kind": "gent_bfcl.categories",
    "parse_categories": "gent_bfcl.categories",
    "check": "gent_bfcl.checker",
    "check_call": "gent_bfcl.checker",
    "check_task": "gent_bfcl.checker",
    "is_calls": "gent_bfcl.checker",
    "BFCLDataError": "gent_bfcl.data",
    "BFCLTask": "gent_bfcl.data",
    "installed_data_dir": "gent_bfcl.data",
    "load_category": "gent_bfcl.data",
    "load_tasks": "gent_bfcl.data",
    "select": "gent_bfcl.data",
    "APINames": "gent_bfcl.names",
    "from_gent_name": "gent_bfcl.names",
    "to_gent_name": "gent_bfcl.names",
    "bfcl_messages": "gent_bfcl.prompt",
    "system_prompt": "gent_bfcl.prompt",
    "DecodeError": "gent_bfcl.pycalls",
    "decode_calls": "gent_bfcl.pycalls",
    "write_calls": "gent_bfcl.pycalls",
    "reference_calls": "gent_bfcl.reference",
    "BFCLSchemaError": "gent_bfcl.schema",
    "ToolSpec": "gent_bfcl.schema",
    "to_json_schema": "gent_bfcl.schema",
    "to_tool_spec": "gent_bfcl.schema",
    "FailureKind": "gent_bfcl.verdict",
    "Verdict": "gent_bfcl.verdict",
}

if TYPE_CHECKING:
    from gent_bfcl.categories import CATEGORIES, check_kind, parse_categories
    from gent_bfcl.checker import check, check_call, check_task, is_calls
    from gent_bfcl.data import (
        BFCLDataError,
        BFCLTask,
        installed_data_dir,
        load_category,
        load_tasks,
        select,
    )
    from gent_bfcl.names import APINames, from_gent_name, to_gent_name
    from gent_bfcl.prompt import bfcl_messages, system_prompt
    from gent_bfcl.pycalls import DecodeError, decode_calls, write_calls
    from gent_bfcl.reference import reference_calls
    from gent_bfcl.schema import BFCLSchemaError, ToolSpec, to_json_schema, to_tool_spec
    from gent_bfcl.verdict import FailureKind, Verdict

__all__ = [
    "CATEGORIES",
    "APINames",
    "BFCLDataError",
    "BFCLSchemaError",
    "BFCLTask",
    "DecodeError",
    "FailureKind",
    "ToolSpec",
    "Verdict",
    "bfcl_messages",
    "check",
    "check_call",
    "check_kind",
    "check_task",
    "decode_calls",
    "from_gent_name",
    "installed_data_dir",
    "is_calls",
    "load_category",
    "load_tasks",
    "parse_categories",
    "reference_calls",
    "select",
    "system_prompt",
    "to_gent_name",
    "to_json_schema",
    "to_tool_spec",
    "write_calls",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())

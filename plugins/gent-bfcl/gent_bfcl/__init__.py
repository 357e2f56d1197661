"""gent-bfcl: the Berkeley Function Calling Leaderboard (BFCL), read and judged by gent's code.

* :mod:`gent_bfcl.data`: BFCL's tasks and possible answers, from the installed ``bfcl-eval``
  (found without importing it) or a folder; deterministic selection.
* :mod:`gent_bfcl.schema`, :mod:`gent_bfcl.names`: BFCL's schema dialect as JSON Schema, and
  BFCL function names as gent tool names and back.
* :mod:`gent_bfcl.checker` (with :mod:`gent_bfcl.values`): BFCL's AST rules, judging parsed
  calls with a failure kind (:mod:`gent_bfcl.verdict`).
* :mod:`gent_bfcl.prompt`, :mod:`gent_bfcl.pycalls`, :mod:`gent_bfcl.runner`: BFCL's own
  prompt mode (its system prompt and decoder) as a baseline for any gent model.

Parts are re-implemented from or copied out of bfcl-eval (Apache-2.0): see NOTICE.
"""

from __future__ import annotations

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
from gent_bfcl.names import from_gent_name, to_gent_name
from gent_bfcl.prompt import bfcl_messages, system_prompt
from gent_bfcl.pycalls import DecodeError, decode_calls, write_calls
from gent_bfcl.reference import reference_calls
from gent_bfcl.schema import BFCLSchemaError, ToolSpec, to_json_schema, to_tool_spec
from gent_bfcl.verdict import FailureKind, Verdict

__all__ = [
    "CATEGORIES",
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

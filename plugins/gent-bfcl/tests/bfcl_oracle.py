"""BFCL's own code, run for gent-bfcl's agreement test (not imported by the tests: run as a
script by the python of a scratch environment holding ``bfcl-eval`` installed with
``--no-deps``; standard library only).

Reads a pickled ``{"check": [...], "pipeline": [...], "prompt": [...]}`` on stdin and writes
a pickled ``{"check": [...], "pipeline": [...], "prompt": [...]}`` of BFCL's answers:

* ``check``: ``(category, functions, calls, possible_answer)`` -> ``("ok", valid, error_type)``
  by ``ast_checker`` (irrelevance: by BFCL's relevance rule on decoded calls, "no call" is
  ``is_empty_output``), or ``("raised", text)`` when BFCL's code raised;
* ``pipeline``: ``(category, functions, text, possible_answer)`` -> the same, for a raw model
  output decoded by BFCL's decoder first, as BFCL's eval runner does it (a decoding failure is
  ``("ok", False, "ast_decoder:decoder_failed")``, or valid for irrelevance), plus the decoded
  calls (or ``None``);
* ``prompt``: ``(task_id, category, functions, first_turn)`` -> the messages BFCL sends a
  prompted model for the first turn (language hint added to the function docs, then
  ``system_prompt_pre_processing_chat_model``).

What runs, and what is stubbed:

* ``bfcl_eval.eval_checker.ast_eval.ast_checker`` is imported whole. Its imports are light
  (``re``, the enums, the type mappings, the Java/JS type converters) but for
  ``bfcl_eval.constants.model_config``, which imports every model handler and through them
  the provider SDKs. A stub module takes its place, whose ``MODEL_CONFIG_MAPPING`` answers
  ``underscore_to_dot=False`` for any model: ``ast_checker`` reads it only in
  ``convert_func_name``, to rename ``a.b`` to ``a_b`` for models whose API forbids dots, which
  is not judging but undoing that model's renaming. With ``False``, names are compared as
  written: what BFCL does for every prompted model.
* The decoder (``default_decode_ast_prompting``, ``ast_parse``, ``resolve_ast_call``,
  ``resolve_ast_by_type``) and the prompt (``system_prompt_pre_processing_chat_model``,
  ``formulate_system_prompt``, ``format_function_doc``, ``parse_prompt_variation_params``)
  from ``bfcl_eval/model_handler/utils.py``, and the relevance and hint rules
  (``is_empty_output``, ``is_function_calling_format_output``,
  ``extract_prompt_format_from_id``, ``_get_language_specific_hint``,
  ``_func_doc_language_specific_pre_processing``, ``is_java``, ``is_js``) from
  ``bfcl_eval/utils.py``: these function definitions are read from the files and executed on
  their own, in a namespace with ``ast``, ``re``, ``json``, ``copy``, the enums and every
  constant of ``bfcl_eval/constants/default_prompts.py`` (imported whole). Their modules
  import tenacity, tree-sitter and filelock, and create folders when imported; none of that
  is used by these functions, which are BFCL's code unchanged.
"""

from __future__ import annotations

import ast
import copy
import json
import pickle
import re
import sys
import types
from pathlib import Path
from typing import Any

import bfcl_eval

PACKAGE = Path(bfcl_eval.__file__).parent
MODEL = "gent"


def _stub_model_config() -> None:
    class _Config:
        underscore_to_dot = False

    class _AnyModel(dict):  # type: ignore[type-arg]
        def __missing__(self, key: str) -> _Config:
            return _Config()

    stub = types.ModuleType("bfcl_eval.constants.model_config")
    stub.MODEL_CONFIG_MAPPING = _AnyModel()  # type: ignore[attr-defined]
    sys.modules[stub.__name__] = stub


def _functions_from(file: Path, names: set[str], namespace: dict[str, Any]) -> None:
    tree = ast.parse(file.read_text(encoding="utf-8"))
    found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    missing = names - {n.name for n in found}
    if missing:
        raise SystemExit(f"not found in {file}: {sorted(missing)}")
    module = ast.Module(body=found, type_ignores=[])  # type: ignore[arg-type]
    exec(compile(module, str(file), "exec"), namespace)  # BFCL's own code


def load() -> dict[str, Any]:
    _stub_model_config()
    from bfcl_eval.constants import default_prompts
    from bfcl_eval.constants.enums import Language, ReturnFormat
    from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker

    namespace: dict[str, Any] = {
        "ast": ast,
        "re": re,
        "json": json,
        "copy": copy,
        "ReturnFormat": ReturnFormat,
        **{k: v for k, v in vars(default_prompts).items() if not k.startswith("__")},
    }
    _functions_from(
        PACKAGE / "model_handler" / "utils.py",
        {
            "default_decode_ast_prompting",
            "ast_parse",
            "resolve_ast_call",
            "resolve_ast_by_type",
            "system_prompt_pre_processing_chat_model",
            "formulate_system_prompt",
            "format_function_doc",
            "parse_prompt_variation_params",
        },
        namespace,
    )
    _functions_from(
        PACKAGE / "utils.py",
        {
            "is_empty_output",
            "is_function_calling_format_output",
            "extract_prompt_format_from_id",
            "_get_language_specific_hint",
            "_func_doc_language_specific_pre_processing",
            "is_java",
            "is_js",
        },
        namespace,
    )
    namespace["ast_checker"] = ast_checker
    namespace["PYTHON"] = Language.PYTHON
    return namespace


def _judge(bfcl: dict[str, Any], category: str, functions: Any, calls: Any, answer: Any) -> Any:
    if "irrelevance" in category:
        return ("ok", bool(bfcl["is_empty_output"](calls)), "irrelevance_error:decoder_success")
    if not bfcl["is_function_calling_format_output"](calls):
        return ("ok", False, "ast_decoder:decoder_wrong_output_format")
    result = bfcl["ast_checker"](functions, calls, answer, bfcl["PYTHON"], category, MODEL)
    return ("ok", bool(result["valid"]), result.get("error_type", ""))


def _guard(job: Any, *args: Any) -> Any:
    try:
        return job(*args)
    except Exception as error:  # noqa: BLE001 - BFCL's code raised: that is the answer
        return ("raised", f"{type(error).__name__}: {error}")


def _pipeline(bfcl: dict[str, Any], category: str, functions: Any, text: str, answer: Any) -> Any:
    try:
        calls = bfcl["default_decode_ast_prompting"](text, bfcl["ReturnFormat"].PYTHON, False)
    except Exception:  # noqa: BLE001 - BFCL's runner catches every decoding failure
        if "irrelevance" in category:
            return ("ok", True, ""), None
        return ("ok", False, "ast_decoder:decoder_failed"), None
    return _guard(_judge, bfcl, category, functions, calls, answer), calls


def _prompt(bfcl: dict[str, Any], task_id: str, category: str, functions: Any, turn: Any) -> Any:
    hinted = bfcl["_func_doc_language_specific_pre_processing"](copy.deepcopy(functions), category)
    return bfcl["system_prompt_pre_processing_chat_model"](copy.deepcopy(turn), hinted, task_id)


def main() -> None:
    jobs = pickle.load(sys.stdin.buffer)
    bfcl = load()
    answers = {
        "check": [_guard(_judge, bfcl, *case) for case in jobs.get("check", [])],
        "pipeline": [_pipeline(bfcl, *case) for case in jobs.get("pipeline", [])],
        "prompt": [_guard(_prompt, bfcl, *case) for case in jobs.get("prompt", [])],
    }
    pickle.dump(answers, sys.stdout.buffer)


if __name__ == "__main__":
    main()

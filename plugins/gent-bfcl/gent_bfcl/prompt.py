"""BFCL's own prompt for prompted (non function-calling) models: its system prompt with the
function docs, and the first turn's messages.

The text is copied from bfcl-eval (``bfcl_eval/constants/default_prompts.py``: the
``classic`` style, ``plaintext`` template, Python return format, JSON function docs — BFCL's
default ``ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&
style=classic``) and assembled as ``formulate_system_prompt`` in
``bfcl_eval/model_handler/utils.py`` assembles it. Copyright the BFCL authors, Apache License
2.0 (see NOTICE and LICENSE-APACHE-2.0). It is kept character for character, including
BFCL's missing space between the first two sentences and the double space where its
(empty) parameter-type note goes: the agreement test compares it with BFCL's own.

Before the docs are written, BFCL appends a language hint to each function's description
(``add_language_specific_hint_to_function_doc``, when it generates answers); for Python
categories: " Note that the provided function is in Python 3 syntax.". :func:`bfcl_messages`
does the same, on a copy.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["PYTHON_HINT", "bfcl_messages", "system_prompt", "with_language_hint"]

_PERSONA = "You are an expert in composing functions."
_TASK = (
    "You are given a question and a set of possible functions. Based on the question, you "
    "will need to make one or more function/tool calls to achieve the purpose. If none of the "
    "functions can be used, point it out. If the given question lacks the parameters required "
    "by the function, also point it out."
)
_TOOL_CALL_NO_TAG = (
    "You should only return the function calls in your response.\n\nIf you decide to invoke "
    "any of the function(s), you MUST put it in the format of {output_format}. {param_types} "
    "You SHOULD NOT include any other text in the response."
)
_PYTHON_OUTPUT_FORMAT = (
    "[func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]"
)
_MULTITURN_BEHAVIOR = (
    "At each turn, you should try your best to complete the tasks requested by the user within "
    "the current turn. Continue to output functions to call until you have fulfilled the "
    "user's request to the best of your ability. Once you have no more functions to call, the "
    "system will consider the current turn complete and proceed to the next turn or task."
)
_AVAILABLE_TOOLS = (
    "Here is a list of functions in {format} format that you can invoke.\n{functions}\n"
)
_TEMPLATE = "{persona}{task}\n\n{tool_call_format}\n\n{multiturn_behavior}\n\n{available_tools}"

PYTHON_HINT = " Note that the provided function is in Python 3 syntax."
"""What BFCL appends to each function's description for Python categories."""


def with_language_hint(functions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A copy of ``functions`` with :data:`PYTHON_HINT` appended to each description."""
    hinted = [copy.deepcopy(dict(function)) for function in functions]
    for function in hinted:
        function["description"] = str(function.get("description", "")) + PYTHON_HINT
    return hinted


def system_prompt(functions: Sequence[Mapping[str, Any]]) -> str:
    """BFCL's default system prompt for ``functions`` (written as given: pass them through
    :func:`with_language_hint` first to get what BFCL sends).
    """
    return _TEMPLATE.format(
        persona=_PERSONA,
        task=_TASK,
        tool_call_format=_TOOL_CALL_NO_TAG.format(
            output_format=_PYTHON_OUTPUT_FORMAT, param_types=""
        ),
        multiturn_behavior=_MULTITURN_BEHAVIOR,
        available_tools=_AVAILABLE_TOOLS.format(
            format="json", functions=json.dumps(list(functions), indent=4)
        ),
    )


def bfcl_messages(
    functions: Sequence[Mapping[str, Any]], first_turn: Sequence[Mapping[str, Any]]
) -> list[dict[str, str]]:
    """The messages BFCL sends a prompted model for a task's first turn: its system prompt
    (for the functions with the language hint), then the turn's messages. A system message
    the turn begins with is appended to BFCL's, after a blank line, as BFCL does
    (``system_prompt_pre_processing_chat_model``).
    """
    prompt = system_prompt(with_language_hint(functions))
    messages = [
        {"role": str(message.get("role", "user")), "content": str(message.get("content", ""))}
        for message in first_turn
    ]
    if messages and messages[0]["role"] == "system":
        messages[0]["content"] = prompt + "\n\n" + messages[0]["content"]
    else:
        messages.insert(0, {"role": "system", "content": prompt})
    return messages

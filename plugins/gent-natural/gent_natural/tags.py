"""The tags of natural tool use and how they are written.

::

    <tool_call name="get_weather">
    {
      "city": "Paris"
    }
    </tool_call>
    <tool_response name="get_weather">
    {
      "temp": 21
    }
    </tool_response>

A body is written between a line break after the opening tag and one before the closing tag,
so a reader that removes exactly those two gets the body back unchanged. A body holding the
closing tag (or ``<![CDATA[``) is wrapped in ``<![CDATA[ ... ]]>``. A failed
call's response has the attribute ``error="true"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

from gent_core.textscan import format_attributes

__all__ = [
    "CALL_TAG",
    "CDATA_CLOSE",
    "CDATA_OPEN",
    "MAX_TAG_LENGTH",
    "MISSING_RESULT",
    "RESPONSE_TAG",
    "TagName",
    "strip_joiners",
    "write_element",
]

TagName = Literal["tool_call", "tool_response"]
CALL_TAG: Final = "tool_call"
RESPONSE_TAG: Final = "tool_response"

MAX_TAG_LENGTH = 512
"""Longest opening tag recognised (``<tool_call name="...">``); longer ones are text. This
bounds how much text a stream holds back while a tag is undecided.
"""

CDATA_OPEN = "<![CDATA["
CDATA_CLOSE = "]]>"

MISSING_RESULT = "(no result was recorded for this call)"
"""The body of the response written for a call that has no result."""


def write_element(tag: str, body: str, attributes: Mapping[str, str]) -> str:
    """Write ``<tag attributes>``, the body on its own lines, ``</tag>``.

    The body is wrapped in CDATA when it holds ``</tag`` (in any case) or ``<![CDATA[``, and a
    ``]]>`` inside it is split across two CDATA blocks, so a reader gets it back exactly.
    """
    written = format_attributes(attributes)
    opening = f"<{tag} {written}>" if written else f"<{tag}>"
    if f"</{tag}" in body.lower() or CDATA_OPEN in body:
        escaped = body.replace(CDATA_CLOSE, "]]]]><![CDATA[>")
        return f"{opening}{CDATA_OPEN}\n{escaped}\n{CDATA_CLOSE}</{tag}>"
    return f"{opening}\n{body}\n</{tag}>"


def strip_joiners(text: str, *, leading: bool = True, trailing: bool = True) -> str:
    r"""Remove one line break (``\n`` or ``\r\n``) from the start and/or the end of ``text``:
    the ones a writer puts around bodies and between the parts of a turn.
    """
    if leading:
        if text.startswith("\r\n"):
            text = text[2:]
        elif text.startswith("\n"):
            text = text[1:]
    if trailing:
        if text.endswith("\r\n"):
            text = text[:-2]
        elif text.endswith("\n"):
            text = text[:-1]
    return text

"""Reading a tool's description and its arguments' descriptions from a docstring.

Three docstring styles are understood:

* Google: an ``Args:`` section (also ``Arguments:``, ``Parameters:``, ``Params:``,
  ``Keyword Args:``, ``Keyword Arguments:``, ``Other Parameters:``) with ``name: text`` or
  ``name (type): text`` entries;
* numpy: a ``Parameters`` header underlined with dashes, with ``name : type`` entries and
  the text indented below;
* Sphinx: ``:param name: text`` (or ``:param type name: text``) fields; ``:type name:``
  fields are dropped.

The description is the docstring without those argument parts (other sections such as
``Returns:`` stay). Parsing is a single pass over the lines.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

__all__ = ["ParsedDocstring", "parse_docstring"]

_GOOGLE_HEADER = re.compile(
    r"^(?P<indent>\s*)(?:Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments"
    r"|Other Parameters|Kwargs)\s*:\s*$"
)
_GOOGLE_ENTRY = re.compile(r"^\*{0,2}(?P<name>\w+)\s*(?:\([^)]*\))?\s*:\s*(?P<text>.*)$")
_NUMPY_HEADER = re.compile(
    r"^(?P<indent>\s*)(?:Parameters|Other Parameters|Keyword Arguments|Arguments)\s*$"
)
_NUMPY_RULE = re.compile(r"^\s*-{3,}\s*$")
_NUMPY_ENTRY = re.compile(r"^\*{0,2}(?P<name>\w+)\s*(?::.*)?$")
_SPHINX_PARAM = re.compile(
    r"^(?P<indent>\s*):(?:param|parameter|arg|argument|key|keyword)\s+(?:[^:]*\s)?"
    r"\*{0,2}(?P<name>\w+)\s*:\s*(?P<text>.*)$"
)
_SPHINX_TYPE = re.compile(r"^(?P<indent>\s*):type\s+\*{0,2}\w+\s*:")


@dataclass(frozen=True)
class ParsedDocstring:
    """A docstring split into the tool's description and per-argument descriptions.

    Attributes:
        description: The docstring without its argument parts, dedented and stripped.
        arguments: Argument name -> description (continuation lines joined by spaces).
    """

    description: str = ""
    arguments: dict[str, str] = field(default_factory=dict)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _join(parts: list[str]) -> str:
    return " ".join(" ".join(parts).split())


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """Index after the block of lines (blank, or indented deeper than ``indent``) at ``start``."""
    end = start
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end


def _read_entries(
    lines: list[str], pattern: re.Pattern[str], arguments: dict[str, str], numpy: bool
) -> None:
    """Read ``name: text`` entries; lines indented deeper than an entry continue it."""
    body = [line for line in lines if line.strip()]
    if not body:
        return
    entry_indent = min(_indent(line) for line in body)
    name: str | None = None
    for line in body:
        match = pattern.match(line.strip()) if _indent(line) == entry_indent else None
        if match is not None:
            name = match.group("name")
            first = "" if numpy else match.group("text")
            arguments[name] = first.strip()
        elif name is not None:
            arguments[name] = _join([arguments[name], line])


def parse_docstring(docstring: str | None) -> ParsedDocstring:
    """Split ``docstring`` into a description and per-argument descriptions.

    Args:
        docstring: A function's ``__doc__`` (``None`` gives an empty result).

    Returns:
        The description without argument sections, and the argument descriptions.
    """
    if not docstring:
        return ParsedDocstring()
    lines = inspect.cleandoc(docstring).splitlines()
    kept: list[str] = []
    arguments: dict[str, str] = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        google = _GOOGLE_HEADER.match(line)
        if google is not None:
            end = _block_end(lines, index + 1, len(google.group("indent")))
            _read_entries(lines[index + 1 : end], _GOOGLE_ENTRY, arguments, numpy=False)
            index = end
            continue
        numpy = _NUMPY_HEADER.match(line)
        if numpy is not None and index + 1 < len(lines) and _NUMPY_RULE.match(lines[index + 1]):
            end = _numpy_section_end(lines, index + 2, len(numpy.group("indent")))
            _read_entries(lines[index + 2 : end], _NUMPY_ENTRY, arguments, numpy=True)
            index = end
            continue
        sphinx = _SPHINX_PARAM.match(line) or _SPHINX_TYPE.match(line)
        if sphinx is not None:
            end = _block_end(lines, index + 1, len(sphinx.group("indent")))
            if "name" in sphinx.groupdict():
                arguments[sphinx.group("name")] = _join(
                    [sphinx.group("text"), *lines[index + 1 : end]]
                )
            index = end
            continue
        kept.append(line.rstrip())
        index += 1
    description = re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()
    return ParsedDocstring(description, arguments)


def _numpy_section_end(lines: list[str], start: int, indent: int) -> int:
    """Index of the next numpy section header (a line underlined with dashes) or the end."""
    end = start
    while end < len(lines):
        is_header = (
            end + 1 < len(lines)
            and _indent(lines[end]) <= indent
            and lines[end].strip()
            and _NUMPY_RULE.match(lines[end + 1])
        )
        if is_header:
            break
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end

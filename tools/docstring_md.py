"""Turn gent's docstrings (Google style with reST inline markup) into Markdown.

Used by ``tools/gen_reference.py`` for the pages it writes (hooks, configuration file) and by
the site's griffe extension (``tools/docs_hooks.py``) for the API pages, so that every page
renders docstrings the same way:

* ``Args:``/``Attributes:``/``Raises:`` sections become bulleted lists, ``Returns:``/``Yields:``
  sections a bold label and their text (``section_markdown``);
* reST inline literals (````x````) become Markdown code spans, and cross-reference roles
  (``:class:`~gent_core.tools.Tool```) become code spans with the shown name
  (``inline_markdown``);
* a paragraph ending in ``::`` followed by an indented block becomes a paragraph ending in ``:``
  and a fenced code block.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from dataclasses import dataclass

__all__ = [
    "ITEM_SECTIONS",
    "TEXT_SECTIONS",
    "DocSection",
    "docstring_markdown",
    "field_descriptions",
    "inline_markdown",
    "rest_roles_markdown",
    "split_sections",
]

ITEM_SECTIONS = ("Args", "Arguments", "Parameters", "Attributes", "Raises", "Keyword Args")
TEXT_SECTIONS = ("Returns", "Yields", "Note", "Notes", "Example", "Examples", "Warning")
_SECTION_HEADER = re.compile(rf"^({'|'.join(ITEM_SECTIONS + TEXT_SECTIONS)}):\s*$")
_ROLE = re.compile(r":(?:py:)?[a-z]+:`(~?)([^`<]+?)(?:\s*<([^>]+)>)?`")
_LITERAL = re.compile(r"``(.+?)``")
_ITEM = re.compile(r"^(\*{0,2}[\w.\[\]]+(?:\s*\([^)]*\))?):\s*(.*)$")


@dataclass(frozen=True)
class DocSection:
    """One part of a docstring: free text (``title`` is ``None``) or a Google section."""

    title: str | None
    body: str


def _role(match: re.Match[str]) -> str:
    tilde, target, explicit = match.groups()
    shown = target.strip()
    if explicit:
        shown = shown or explicit
    elif tilde:
        shown = shown.rsplit(".", 1)[-1]
    return f"`{shown}`"


def rest_roles_markdown(text: str) -> str:
    """Replace reST cross-reference roles (``:class:`~a.B```) by code spans (`` `B` ``)."""
    return _ROLE.sub(_role, text)


def inline_markdown(text: str) -> str:
    """Convert reST inline markup to Markdown (roles and double-backquote literals)."""
    return _LITERAL.sub(lambda m: f"`{m.group(1)}`", rest_roles_markdown(text))


def split_sections(docstring: str) -> list[DocSection]:
    """Split a cleaned docstring into free-text parts and Google sections, in order."""
    sections: list[DocSection] = []
    title: str | None = None
    body: list[str] = []

    def flush() -> None:
        text = "\n".join(body).strip("\n")
        if text.strip():
            sections.append(DocSection(title, textwrap.dedent(text) if title else text))

    for line in docstring.splitlines():
        header = _SECTION_HEADER.match(line)
        if header:
            flush()
            title, body = header.group(1), []
        elif title is not None and line.strip() and not line.startswith((" ", "\t")):
            # Text back at the left margin ends the section.
            flush()
            title, body = None, [line]
        else:
            body.append(line)
    flush()
    return sections


def _items(body: str) -> list[tuple[str, str]]:
    """The ``name: description`` items of a section (continuation lines joined)."""
    items: list[tuple[str, str]] = []
    for line in body.splitlines():
        match = _ITEM.match(line) if not line.startswith((" ", "\t")) else None
        if match:
            items.append((match.group(1), match.group(2).strip()))
        elif items and line.strip():
            name, text = items[-1]
            items[-1] = (name, f"{text} {line.strip()}".strip())
    return items


def field_descriptions(docstring: str) -> dict[str, str]:
    """The ``Attributes:`` (or ``Args:``) items of a docstring, as Markdown, by name."""
    found: dict[str, str] = {}
    for section in split_sections(inspect.cleandoc(docstring)):
        if section.title in ("Attributes", "Args", "Arguments", "Parameters"):
            for name, text in _items(section.body):
                found.setdefault(name, inline_markdown(text))
    return found


def _free_text(text: str, code_language: str) -> str:
    """Free text with ``::`` literal blocks turned into fenced code blocks."""
    out: list[str] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.rstrip().endswith("::") and not line.strip().startswith("```"):
            stripped = line.rstrip()[:-2].rstrip()
            out.append(inline_markdown(stripped + ":") if stripped else "")
            index += 1
            block: list[str] = []
            while index < len(lines) and (
                not lines[index].strip() or lines[index].startswith((" ", "\t"))
            ):
                block.append(lines[index])
                index += 1
            code = textwrap.dedent("\n".join(block)).strip("\n")
            out += ["", f"```{code_language}", code, "```", ""]
            continue
        out.append(inline_markdown(line))
        index += 1
    return "\n".join(out).strip("\n")


def section_markdown(section: DocSection, code_language: str = "text") -> str:
    """One docstring section as Markdown."""
    if section.title is None:
        return _free_text(section.body, code_language)
    if section.title in ITEM_SECTIONS:
        label = "Parameters" if section.title in ("Args", "Arguments") else section.title
        lines = [f"**{label}**", ""]
        lines += [f"- `{name}`: {inline_markdown(text)}" for name, text in _items(section.body)]
        return "\n".join(lines)
    text = " ".join(line.strip() for line in section.body.splitlines() if line.strip())
    return f"**{section.title}**: {inline_markdown(text)}"


def docstring_markdown(docstring: str | None, code_language: str = "text") -> str:
    """A whole docstring as Markdown (see the module docstring for the rules)."""
    if not docstring:
        return ""
    parts = [
        section_markdown(s, code_language) for s in split_sections(inspect.cleandoc(docstring))
    ]
    return "\n\n".join(part for part in parts if part)

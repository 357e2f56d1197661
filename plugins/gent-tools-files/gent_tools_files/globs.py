"""Glob patterns over ``/``-separated relative paths, with ``**``.

Syntax (the same in ``list_dir`` and ``search_text``):

* ``*`` matches any run of characters within one path component (dot files included);
* ``?`` matches one character, ``[abc]``, ``[a-z]`` and ``[!abc]`` one character of a set;
* ``**`` as a whole component matches any number of components, none included:
  ``**/*.py`` matches ``a.py`` and ``src/pkg/a.py``; ``src/**`` matches everything in ``src``;
* ``{py,md}`` matches either alternative (no nesting);
* a backslash escapes the next character.

Patterns are translated once into a regular expression, matched through gent-core's bounded
helper (:func:`gent_core.bounds.compile_pattern`): the expression never nests repetitions,
but a glob such as ``*a*a*a*a*a*a*a*a*a*a*b`` written for a long name would make Python's
``re`` backtrack for hours; with the helper a match that runs out of time is a
:class:`GlobError` ("simplify it").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gent_core.bounds import BoundedPattern, PatternError, PatternTimeoutError, compile_pattern

__all__ = ["Glob", "GlobError", "MAX_GLOB_LENGTH"]

MAX_GLOB_LENGTH = 500
"""Longest glob accepted, in characters."""


class GlobError(ValueError):
    """A glob that cannot be used; the message says what was wrong."""


def _compiled(expression: str) -> BoundedPattern:
    try:
        return compile_pattern(expression)
    except PatternError as error:
        raise GlobError(f"it cannot be read ({error.problem})") from None


def _fullmatch(pattern: BoundedPattern, text: str) -> bool:
    try:
        return pattern.fullmatch(text) is not None
    except PatternTimeoutError as error:
        raise GlobError(
            f"matching it against {text[:100]!r} took longer than {error.seconds:g} s; "
            "simplify it (fewer * in one name)"
        ) from None


def _translate_component(text: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        index += 1
        if char == "*":
            while index < len(text) and text[index] == "*":
                index += 1
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "\\" and index < len(text):
            out.append(re.escape(text[index]))
            index += 1
        elif char == "[":
            end, klass = _char_class(text, index)
            out.append(klass)
            index = end
        elif char == "{":
            close = text.find("}", index)
            if close < 0:
                raise GlobError("'{' without a closing '}'")
            choices = text[index:close].split(",")
            if any("{" in choice for choice in choices):
                raise GlobError("nested '{...}' alternatives are not supported")
            out.append("(?:" + "|".join(_translate_component(c) for c in choices) + ")")
            index = close + 1
        else:
            out.append(re.escape(char))
    return "".join(out)


def _char_class(text: str, start: int) -> tuple[int, str]:
    """Translate the set starting after ``[`` at ``start``; return its end and regex."""
    index = start
    negate = index < len(text) and text[index] in "!^"
    if negate:
        index += 1
    body_start = index
    if index < len(text) and text[index] == "]":
        index += 1  # a leading ] is literal
    while index < len(text) and text[index] != "]":
        index += 1
    if index >= len(text):
        raise GlobError("'[' without a closing ']'")
    body = "".join(c if c == "-" else re.escape(c) for c in text[body_start:index] if c != "/")
    if not body:
        raise GlobError("an empty set '[]'")
    return index + 1, f"[{'^/' if negate else ''}{body}]"


@dataclass(frozen=True)
class Glob:
    """A compiled glob.

    Attributes:
        pattern: The pattern as given.
        components: Its ``/``-separated components.
        recursive: Whether it can match below its first component (``**`` or a ``/``).
    """

    pattern: str
    components: tuple[str, ...]
    regex: BoundedPattern
    prefixes: tuple[BoundedPattern, ...]
    recursive: bool
    max_depth: int | None

    @classmethod
    def compile(cls, pattern: str) -> Glob:
        """Compile ``pattern``.

        Raises:
            GlobError: An empty or too long pattern, an unclosed ``[`` or ``{``.
        """
        text = pattern.strip()
        if not text:
            raise GlobError("the glob is empty")
        if len(text) > MAX_GLOB_LENGTH:
            raise GlobError(f"the glob is longer than {MAX_GLOB_LENGTH} characters")
        if "\x00" in text:
            raise GlobError("the glob contains a NUL byte")
        components = tuple(part for part in text.strip("/").split("/") if part not in ("", "."))
        if not components:
            raise GlobError("the glob names no file")
        if ".." in components:
            raise GlobError("'..' cannot be used in a glob")
        pieces: list[str] = []
        prefixes: list[BoundedPattern] = []
        for index, part in enumerate(components):
            last = index == len(components) - 1
            if part == "**":
                pieces.append(".*" if last else "(?:[^/]+/)*")
            else:
                pieces.append(_translate_component(part) + ("" if last else "/"))
            if "**" not in components[: index + 1]:
                prefixes.append(_compiled("".join(pieces).removesuffix("/")))
        regex = _compiled("".join(pieces))
        depth = None if "**" in components else len(components)
        return cls(pattern, components, regex, tuple(prefixes), depth is None or depth > 1, depth)

    def match(self, relative: str) -> bool:
        """Whether the ``/``-separated ``relative`` path matches.

        Raises:
            GlobError: The match took longer than the helper's deadline.
        """
        return _fullmatch(self.regex, relative)

    def may_contain(self, directory: str, depth: int) -> bool:
        """Whether a match may lie inside ``directory`` (``depth`` components deep; raises
        like :meth:`match`).
        """
        if self.max_depth is not None and depth >= self.max_depth:
            return False
        if depth <= len(self.prefixes):
            return _fullmatch(self.prefixes[depth - 1], directory)
        return True  # past the literal part: only a ``**`` can go on

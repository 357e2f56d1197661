"""Find the calls in an action section: one pass over the text, before any parsing.

The scanner decides which text is a call and where each call ends; :mod:`gent_pythonic.reader`
then parses each call on its own with :mod:`ast`. Line by line:

* A **call** starts a line (after indentation): a name (letters, digits, ``_``, ``-``, dots)
  directly followed by ``(``, or a known tool's name, spaces, then ``(``. It runs to the
  matching ``)``, across lines, skipping strings (any quotes, triple quotes, prefixes) and
  comments. Text that ends before the ``)`` (or inside a string) is a call that was **cut
  off**: :class:`~gent_core.errors.TruncatedCallError`, never a shorter call.
* Several calls on one line are separated by ``,`` or ``;``; the bracketed list Llama 3.2
  writes, ``[a(x=1), b(y="2")]``, may span lines (an unclosed list is cut off too).
* After a call, a line may hold only separators, ``]`` and a ``# comment``; anything else is
  an error (``calculator(expression="2") + 1`` must not run half of what was meant).
* Any other line is **prose** (explanations before, between or after the calls) or a code
  fence (```` ```python ````), and is skipped, unless it mentions a known tool's name directly
  followed by ``(`` (``result = calculator(...)``, ``Call: calculator(...)``): a call that is
  not at the start of its line is an error rather than silently lost.

Nesting deeper than :data:`gent_core.bounds.MAX_DEPTH` and more than :data:`MAX_VALUES`
values in one call are refused here, so the parser never sees pathological input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from gent_core.bounds import MAX_DEPTH
from gent_pythonic.errors import call_error, cut_off

__all__ = ["MAX_VALUES", "CallSpan", "Scan", "scan_calls"]

MAX_VALUES = 100_000
"""Most values (roughly: separators and brackets) one call may hold."""

_CALL_START = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*)([ \t]*)\(")
_INSIDE = re.compile(r"[()\[\]{}\"'#\\,:]")
_STRING_STOPS = {'"': re.compile(r'[\\\n"]'), "'": re.compile(r"[\\\n']")}
_CLOSER = {"(": ")", "[": "]", "{": "}"}
_FENCES = ("```", "~~~")
_NAME_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


@dataclass(frozen=True)
class CallSpan:
    """Where one call is written.

    Attributes:
        name: The called name as written (dots and dashes included).
        start: Offset of the name.
        end: Offset just after the closing parenthesis.
        code: How many of its characters are outside strings and comments.
    """

    name: str
    start: int
    end: int
    code: int


@dataclass(frozen=True)
class Scan:
    """What the scanner found.

    Attributes:
        calls: The calls, in order.
        prose: Offset of the first line of prose, or ``None`` when there is none.
    """

    calls: list[CallSpan]
    prose: int | None


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def _snippet(text: str, pos: int) -> str:
    found = text[pos : _line_end(text, pos)].strip()
    return found if len(found) <= 40 else found[:40] + "..."


class _Scanner:
    def __init__(
        self,
        text: str,
        is_tool: Callable[[str], bool],
        mentions: re.Pattern[str] | None,
        section: str | None,
    ) -> None:
        self.text = text
        self.is_tool = is_tool
        self.mentions = mentions
        self.section = section

    def fail(self, offset: int, problem: str, advice: str = "") -> Exception:
        return call_error(self.text, offset, problem, section=self.section, advice=advice)

    # ----------------------------------------------------------------- one call

    def call_at(self, pos: int) -> re.Match[str] | None:
        """The call start at ``pos`` (name, spaces, parenthesis), or ``None``."""
        if self.text[pos] not in _NAME_FIRST:
            return None
        found = _CALL_START.match(self.text, pos)
        if found is None or (found.group(2) and not self.is_tool(found.group(1))):
            return None
        return found

    def string_end(self, quote: int, call: int) -> int:
        """The offset after the string literal whose opening quote is at ``quote``."""
        text = self.text
        char = text[quote]
        triple = text.startswith(char * 3, quote)
        pos = quote + (3 if triple else 1)
        stops = _STRING_STOPS[char]
        while True:
            found = stops.search(text, pos)
            if found is None:
                raise cut_off(text, call, "a string is not closed", section=self.section)
            at = found.start()
            stop = text[at]
            if stop == "\\":
                pos = at + 2
            elif stop == "\n":
                if triple:
                    pos = at + 1
                elif not text[at:].strip():
                    raise cut_off(text, call, "a string is not closed", section=self.section)
                else:
                    raise self.fail(
                        quote,
                        "a string that is not closed on its line",
                        r"Write a line break inside a string as \n.",
                    )
            elif not triple:
                return at + 1
            elif text.startswith(char * 3, at):
                return at + 3
            else:
                pos = at + 1

    def extent(self, start: int, opening: int) -> tuple[int, int]:
        """The offset after the ``)`` matching the one at ``opening``, and how many characters
        from ``start`` to there are outside strings and comments.
        """
        text = self.text
        expected = [")"]
        values = 0
        skipped = 0
        pos = opening + 1
        while True:
            found = _INSIDE.search(text, pos)
            if found is None:
                raise cut_off(text, start, "a closing ) is missing", section=self.section)
            at = found.start()
            char = text[at]
            pos = at + 1
            if char in _CLOSER:
                expected.append(_CLOSER[char])
                values += 1
                if len(expected) > MAX_DEPTH + 1:
                    raise self.fail(
                        at,
                        f"arguments nested more than {MAX_DEPTH} levels deep",
                        "Write flatter values.",
                    )
            elif char in ")]}":
                wanted = expected.pop()
                if char != wanted:
                    raise self.fail(at, f"a `{char}` where `{wanted}` was expected")
                if not expected:
                    return pos, pos - start - skipped
            elif char == '"' or char == "'":
                pos = self.string_end(at, start)
                skipped += pos - at
            elif char == "#":
                pos = _line_end(text, at)
                skipped += pos - at
            elif char == "\\":
                pos = at + 2
            else:
                values += 1
            if values > MAX_VALUES:
                raise self.fail(
                    start,
                    f"a call with more than {MAX_VALUES} values",
                    "Pass large data in fewer, larger strings.",
                )

    # ----------------------------------------------------------------- lines

    def list_follows(self, bracket: int) -> tuple[str | None, int]:
        """After a ``[``: ``"call"`` when a call follows (blank lines and comments aside),
        ``"empty"`` for ``[]``, else ``None``; and where that was found.
        """
        text = self.text
        pos = bracket + 1
        while pos < len(text):
            if text[pos] in " \t\n":
                pos += 1
            elif text[pos] == "#":
                pos = _line_end(text, pos)
            else:
                break
        if pos < len(text) and text[pos] == "]":
            return "empty", pos
        if pos < len(text) and self.call_at(pos) is not None:
            return "call", pos
        return None, pos

    def prose(self, pos: int) -> int:
        """Skip a line of prose (refusing a known tool's call inside it); return its end."""
        end = _line_end(self.text, pos)
        if self.mentions is not None:
            found = self.mentions.search(self.text, pos, end)
            if found is not None:
                raise self.fail(
                    found.start(),
                    f"a call of {found.group(1)} after other text on its line",
                    "Write each call at the start of its own line, with nothing before it "
                    "(no assignment, await, print or prose).",
                )
        return end

    def stray(self, pos: int, *, in_list: bool) -> Exception:
        """The error for text at ``pos`` where only calls, separators, ``]`` and a comment
        may stand: inside a list of calls, or after a call on its line.
        """
        if in_list:
            return self.fail(
                pos,
                f"`{_snippet(self.text, pos)}` inside the list of calls",
                "A list of calls holds only calls separated by commas, then `]`.",
            )
        return self.fail(
            pos,
            f"`{_snippet(self.text, pos)}` after a call on the same line",
            "Write each call on its own line, with nothing after it but a # comment.",
        )

    def scan(self) -> Scan:
        """The calls of the text, in order, and where its first prose starts (one pass; the
        rules are the module docstring's).

        Long because it is one state machine kept in one loop for speed: three states (an
        open list, the last token, whether the line holds code) decide every branch, and a
        method per token kind would pass them in and back out for every token of the text.
        """
        text = self.text
        calls: list[CallSpan] = []
        prose: int | None = None
        list_open: int | None = None  # offset of the "[" of an open list of calls
        last = ""  # the last token: "call", "sep", "open", "end" (of a list) or ""
        line_code = False  # whether this line holds code (a call, a separator, a bracket)
        pos = 0
        while pos < len(text):
            char = text[pos]
            if char == " " or char == "\t":
                pos += 1
                continue
            if char == "\n":
                line_code = False
                pos += 1
                continue
            if char == "#":
                pos = _line_end(text, pos)
                continue
            in_code = line_code or list_open is not None
            start = self.call_at(pos)
            if start is not None:
                if line_code and last in ("call", "end"):
                    raise self.fail(
                        pos,
                        "a second call on the same line without a comma",
                        "Write each call on its own line.",
                    )
                end, code = self.extent(pos, start.end() - 1)
                calls.append(CallSpan(start.group(1), pos, end, code))
                pos, last, line_code = end, "call", True
                continue
            if char == "[" and list_open is None and not (line_code and last in ("call", "end")):
                follows, found = self.list_follows(pos)
                if follows == "empty":
                    pos = found + 1
                    last, line_code = "end", True
                    continue
                if follows == "call":
                    list_open, last, line_code = pos, "open", True
                    pos += 1
                    continue
            elif char == "]" and list_open is not None and last in ("call", "sep", "open"):
                list_open, last, line_code = None, "end", True
                pos += 1
                continue
            elif char in ",;" and last == "call" and in_code:
                last, line_code = "sep", True
                pos += 1
                continue
            if in_code:
                raise self.stray(pos, in_list=list_open is not None)
            if not text.startswith(_FENCES, pos) and prose is None:
                prose = pos
            pos = self.prose(pos)
        if list_open is not None:
            raise cut_off(
                text, list_open, "the list of calls is not closed with ]", section=self.section
            )
        return Scan(calls, prose)


def scan_calls(
    text: str,
    *,
    is_tool: Callable[[str], bool],
    mentions: re.Pattern[str] | None = None,
    section: str | None = None,
) -> Scan:
    """Find the calls in ``text`` (Windows line ends already converted); see the module
    documentation.

    Args:
        text: The section's content.
        is_tool: Whether a name is one of the chain's tools (only those may have spaces
            before their ``(``).
        mentions: Finds a known tool's name followed by ``(`` (group 1: the name); such a
            mention inside prose is an error.
        section: The section name, for error locations.

    Raises:
        TruncatedCallError: A call or a list of calls was cut off.
        PythonCallError: Text after a call on its line, a mismatched bracket, a string not
            closed on its line, nesting beyond :data:`~gent_core.bounds.MAX_DEPTH`, more
            than :data:`MAX_VALUES` values, or a known tool called after other text.
    """
    return _Scanner(text, is_tool, mentions, section).scan()

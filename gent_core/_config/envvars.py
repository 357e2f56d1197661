"""``${ENV_VAR}`` expansion in configuration strings.

Accepted forms, inside any string value:

* ``${NAME}``: the variable's value; an error when it is not set;
* ``${NAME:-default}``: the value, or ``default`` when the variable is unset or empty;
* ``$${``: a literal ``${`` (nothing is expanded);
* a ``$`` not followed by ``{`` is kept as it is.

Names are ``[A-Za-z_][A-Za-z0-9_]*``. Expansion is one left-to-right scan (linear time); an
expanded value is never expanded again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["Expansion", "ExpansionError", "expand"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ExpansionError(ValueError):
    """A variable reference that cannot be expanded (its text names the variable)."""


@dataclass
class Expansion:
    """The result of expanding one string.

    Attributes:
        text: The expanded text.
        values: The values taken from the environment (not defaults), in order.
        names: The names of the variables those values came from, in the same order.
        expanded: Whether any ``${...}`` reference (or ``$${`` escape) was present.
    """

    text: str
    values: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    expanded: bool = False


def _resolve(reference: str, environ: Mapping[str, str], result: Expansion) -> str:
    """The text of ``${reference}``: the variable's value (recorded in ``result``), else its
    default.

    Raises:
        ExpansionError: For an invalid name, or an unset variable without a default.
    """
    name, separator, default = reference.partition(":-")
    if _NAME.fullmatch(name) is None:
        raise ExpansionError(
            f"invalid variable reference ${{{reference}}}: a name is letters, digits and "
            "underscores, not starting with a digit (write ${NAME} or ${NAME:-default})"
        )
    value = environ.get(name)
    if separator and not value:
        return default
    if value is None:
        raise ExpansionError(
            f"environment variable {name!r} is not set "
            f"(set it, or give a default: ${{{name}:-default}})"
        )
    result.values.append(value)
    result.names.append(name)
    return value


def expand(text: str, environ: Mapping[str, str]) -> Expansion:
    """Expand every ``${NAME}`` and ``${NAME:-default}`` reference in ``text``.

    Args:
        text: The string as written in the file.
        environ: The environment to read variables from.

    Returns:
        The expanded text and the environment values used.

    Raises:
        ExpansionError: For an unset variable without default, an unclosed ``${`` or an
            invalid variable name; the message names the variable.
    """
    result = Expansion(text)
    if "$" not in text:
        return result
    pieces: list[str] = []
    position = 0
    while True:
        dollar = text.find("$", position)
        if dollar < 0:
            break
        pieces.append(text[position:dollar])
        if text.startswith("$${", dollar):
            pieces.append("${")
            result.expanded = True
            position = dollar + 3
            continue
        if not text.startswith("${", dollar):
            pieces.append("$")
            position = dollar + 1
            continue
        close = text.find("}", dollar + 2)
        if close < 0:
            raise ExpansionError(
                f"unclosed variable reference {text[dollar : dollar + 40]!r}: "
                "write ${NAME} or ${NAME:-default} (or $${ for a literal ${)"
            )
        pieces.append(_resolve(text[dollar + 2 : close], environ, result))
        result.expanded = True
        position = close + 1
    pieces.append(text[position:])
    result.text = "".join(pieces)
    return result

"""Errors of the command line, and the docs page that explains each kind of error.

Every error a ``gent`` command reports ends with a pointer to the page of the documentation
that explains the fix, as its address on the documentation site (``see
https://.../configuration/``; :func:`gent_core._docs_url.docs_url`, ``GENT_DOCS_URL`` changes
the site). :data:`DOCS_PAGES` maps each error type to its page, once; the most specific type
of an error wins (its class first, then its bases). ``tests/cli/test_cli_docs_links.py``
checks that every page exists in ``docs/``.
"""

from __future__ import annotations

from gent_core.errors import (
    AmbiguousComponentError,
    ComponentNotFoundError,
    ConfigError,
    GentError,
    InputBoundsError,
    InputTooLargeError,
    ModelError,
    PluginLoadError,
    TerminationError,
    ToolError,
    ToolsetError,
)

__all__ = ["DOCS_PAGES", "UsageError", "docs_hint", "docs_page"]


class UsageError(GentError):
    """The command line is wrong: a bad argument or a combination of flags (exit code 2).

    Plugin commands report bad arguments with it too (``Output.error(command, message,
    cause=UsageError)``), so the error points at the command line's documentation.
    """


DOCS_PAGES: dict[type[BaseException], str] = {
    UsageError: "command-line.md",
    ConfigError: "configuration.md",
    ComponentNotFoundError: "command-line.md#install-plugins",
    AmbiguousComponentError: "configuration.md#components-and-their-options",
    PluginLoadError: "command-line.md#broken-plugins",
    ModelError: "models.md",
    ToolsetError: "configuration.md#toolsets",
    ToolError: "tools.md",
    TerminationError: "typed-answers.md",
    InputBoundsError: "limits.md",
    InputTooLargeError: "limits.md",
    GentError: "reference/errors.md",
}
"""Error type -> the docs page (and section) that explains how to fix it, relative to
``docs/``."""


def docs_page(error: BaseException | type[BaseException]) -> str | None:
    """The docs page for ``error`` (an error or an error type), or ``None``."""
    kind = error if isinstance(error, type) else type(error)
    for klass in kind.__mro__:
        page = DOCS_PAGES.get(klass)
        if page is not None:
            return page
    return None


def docs_hint(error: BaseException | type[BaseException]) -> str | None:
    """``"see <the page's URL>"`` for ``error``, or ``None`` when no page explains it."""
    from gent_core._docs_url import docs_url

    page = docs_page(error)
    return f"see {docs_url(page)}" if page is not None else None

"""Where a page of gent's documentation is: the one place messages get its address.

Error messages, hints and help texts point to a page of the documentation. No site publishes
it yet, so by default the address is the page's file in the checkout gent runs from
(``/path/to/gent/docs/limits.md``), found beside the ``gent_core`` package; a gent installed
from a wheel has no checkout, and names the page inside gent's repository
(``docs/limits.md in gent's repository``).

The environment variable :data:`DOCS_URL_VARIABLE` (``GENT_DOCS_URL``) points to a built site
instead: ``python3 dev.py docs --serve`` serves one at ``http://127.0.0.1:8000/``, and
``python3 dev.py docs`` builds one into ``site/`` (``file:///path/to/gent/site/``). A site's
address is the page as MkDocs builds it (``use_directory_urls``: ``limits.md`` -> ``limits/``,
``index.md`` -> the site's root).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["DOCS_URL_VARIABLE", "docs_url"]

DOCS_URL_VARIABLE = "GENT_DOCS_URL"
"""The environment variable naming a built documentation site, when set and not empty."""

REPOSITORY_NOTE = " in gent's repository"
"""What follows a page's path when no checkout holds it (gent installed from a wheel)."""


def _checkout_docs() -> Path | None:
    """The ``docs`` folder of the checkout gent runs from, or ``None`` (installed from a
    wheel: no ``mkdocs.yml`` beside the package).
    """
    root = Path(__file__).resolve().parent.parent
    try:
        if (root / "mkdocs.yml").is_file() and (root / "docs").is_dir():
            return root / "docs"
    except OSError:
        return None
    return None


def docs_url(page: str = "", environ: Mapping[str, str] | None = None) -> str:
    """The address of ``page`` of the documentation (a path relative to ``docs/``).

    Args:
        page: ``"limits.md"``, ``"reference/errors.md"``, ``"configuration.md#toolsets"``;
            empty for the home page.
        environ: Where :data:`DOCS_URL_VARIABLE` is read (default: the process environment).

    Returns:
        With ``GENT_DOCS_URL`` set, the page's address on that site
        (``http://127.0.0.1:8000/configuration/#toolsets``); else its file in the checkout
        (``/path/to/gent/docs/configuration.md#toolsets``), or, without a checkout,
        ``docs/configuration.md#toolsets in gent's repository``.
    """
    base = (os.environ if environ is None else environ).get(DOCS_URL_VARIABLE, "").strip()
    path, hash_sign, anchor = page.partition("#")
    path = path or "index.md"
    if not base:
        docs = _checkout_docs()
        if docs is None:
            return f"docs/{path}{hash_sign}{anchor}{REPOSITORY_NOTE}"
        return f"{docs / path}{hash_sign}{anchor}"
    if not base.endswith("/"):
        base += "/"
    path = path.removesuffix(".md")
    if path == "index" or path.endswith("/index"):
        path = path.removesuffix("index")
    else:
        path += "/"
    return base + path + hash_sign + anchor

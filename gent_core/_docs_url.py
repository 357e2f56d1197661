"""Where a page of gent's documentation is on the web: the one place messages get its URL.

Error messages, hints and help texts point to a page of the documentation site, not to a
path in a checkout (``docs/limits.md`` means nothing to someone who installed a wheel).
:func:`docs_url` turns a page of ``docs/`` (``"limits.md"``, ``"configuration.md#toolsets"``)
into its address on the site, as MkDocs builds it (``use_directory_urls``: ``limits.md`` ->
``limits/``, ``index.md`` -> the site's root).

The site is :data:`DEFAULT_DOCS_URL` (``site_url`` in ``mkdocs.yml``; a test keeps the two
equal); the environment variable :data:`DOCS_URL_VARIABLE` (``GENT_DOCS_URL``) points
elsewhere: a mirror, another version, or a local build (``file:///path/to/site/``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["DEFAULT_DOCS_URL", "DOCS_URL_VARIABLE", "docs_url"]

DEFAULT_DOCS_URL = "https://gent-project.github.io/gent/"
"""The documentation site (``site_url`` in ``mkdocs.yml``)."""

DOCS_URL_VARIABLE = "GENT_DOCS_URL"
"""The environment variable that replaces :data:`DEFAULT_DOCS_URL` when set and not empty."""


def docs_url(page: str = "", environ: Mapping[str, str] | None = None) -> str:
    """The URL of ``page`` of the documentation (a path relative to ``docs/``).

    Args:
        page: ``"limits.md"``, ``"reference/errors.md"``, ``"configuration.md#toolsets"``;
            empty for the site's home page.
        environ: Where :data:`DOCS_URL_VARIABLE` is read (default: the process environment).

    Returns:
        The page's address on the site: ``https://.../limits/``,
        ``https://.../configuration/#toolsets``.
    """
    base = (os.environ if environ is None else environ).get(DOCS_URL_VARIABLE, "").strip()
    base = base or DEFAULT_DOCS_URL
    if not base.endswith("/"):
        base += "/"
    path, hash_sign, anchor = page.partition("#")
    path = path.removesuffix(".md")
    if path == "index" or path.endswith("/index"):
        path = path.removesuffix("index")
    elif path:
        path += "/"
    return base + path + hash_sign + anchor

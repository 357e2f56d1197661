"""Every error the command line reports points to a docs page, and every such page exists."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from gent_core import _docs_url
from gent_core._cli.errors import DOCS_PAGES, UsageError, docs_hint, docs_page
from gent_core._docs_url import docs_url
from gent_core.errors import (
    AmbiguousComponentError,
    ConfigError,
    GentError,
    InvalidToolArgumentsError,
    ModelError,
    ParseError,
    PluginLoadError,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"


def slug(heading: str) -> str:
    """The anchor MkDocs (Python-Markdown's toc) gives a heading."""
    text = re.sub(r"`|\*|_(?=\w)|\[|\]\([^)]*\)", "", heading)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(page: Path) -> set[str]:
    found = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(slug(line.lstrip("#").strip()))
    return found


@pytest.mark.parametrize("error_type", list(DOCS_PAGES), ids=lambda kind: kind.__name__)
def test_every_page_it_points_to_exists(error_type: type[BaseException]) -> None:
    page, _, anchor = DOCS_PAGES[error_type].partition("#")
    path = DOCS / page
    assert path.is_file(), f"{error_type.__name__} points to docs/{page}, which does not exist"
    if anchor:
        assert anchor in anchors(path), f"docs/{page} has no section #{anchor}"


def test_the_most_specific_type_wins() -> None:
    assert docs_page(ConfigError("x")) == "configuration.md"
    assert docs_page(UsageError("x")) == "command-line.md"
    assert docs_page(AmbiguousComponentError("format", "xml", ["a", "b"])) == (
        "configuration.md#components-and-their-options"
    )
    assert docs_page(PluginLoadError("p", None, "boom", cause=None)) == (
        "command-line.md#broken-plugins"
    )
    assert docs_page(ModelError("x")) == "models.md"
    assert docs_page(InvalidToolArgumentsError("x")) == "tools.md"
    assert docs_page(ParseError("x")) == "reference/errors.md"  # via GentError
    assert docs_page(GentError) == "reference/errors.md"
    assert docs_page(ValueError("not gent's")) is None
    assert docs_hint(ConfigError("x")) == f"see {docs_url('configuration.md')}"


# --------------------------------------------------------------------------- the site's URLs


@pytest.mark.parametrize(
    ("page", "path"),
    [
        ("", ""),
        ("index.md", ""),
        ("limits.md", "limits/"),
        ("reference/errors.md", "reference/errors/"),
        ("reference/plugins/index.md", "reference/plugins/"),
        ("configuration.md#toolsets", "configuration/#toolsets"),
    ],
)
def test_a_page_is_its_address_on_a_configured_site(page: str, path: str) -> None:
    served = {"GENT_DOCS_URL": "http://127.0.0.1:8000/"}
    assert docs_url(page, environ=served) == "http://127.0.0.1:8000/" + path
    mirror = {"GENT_DOCS_URL": "file:///home/me/gent/site"}  # the trailing slash is added
    assert docs_url(page, environ=mirror) == "file:///home/me/gent/site/" + path


@pytest.mark.parametrize(
    ("page", "file", "anchor"),
    [
        ("", "index.md", ""),
        ("limits.md", "limits.md", ""),
        ("reference/errors.md", "reference/errors.md", ""),
        ("configuration.md#toolsets", "configuration.md", "#toolsets"),
    ],
)
def test_without_a_site_a_page_is_its_file_in_the_checkout(
    page: str, file: str, anchor: str
) -> None:
    # No site publishes the docs: the address must be something a reader can open.
    address = docs_url(page, environ={})
    assert address == f"{DOCS / file}{anchor}"
    assert (DOCS / file).is_file()


def test_without_a_checkout_a_page_is_named_in_the_repository(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_docs_url, "_checkout_docs", lambda: None)
    assert docs_url("limits.md#sizes", environ={}) == "docs/limits.md#sizes in gent's repository"
    assert docs_url("", environ={}) == "docs/index.md in gent's repository"


def test_an_error_on_the_command_line_points_to_the_configured_site(tmp_path: Path) -> None:
    from tests.cli.inprocess import gent_in_process

    (tmp_path / "agent.yaml").write_text("model: scripted\nmax_steps: 0\n")
    site = {"GENT_DOCS_URL": "https://docs.example.org/gent/v0.1"}
    done = gent_in_process(tmp_path, ["run", "agent.yaml", "q"], env=site)
    stderr = done.stderr.decode()
    assert done.returncode == 2
    assert stderr.endswith("  see https://docs.example.org/gent/v0.1/configuration/\n")
    assert "docs/" not in stderr.replace("/gent/v0.1/", "")


def test_the_slug_matches_mkdocs() -> None:
    assert slug("Components and their options") == "components-and-their-options"
    assert slug("Use a local model (`llamacpp`)") == "use-a-local-model-llamacpp"
    assert slug("What the model reads: `gent describe --prompt`") == (
        "what-the-model-reads-gent-describe-prompt"
    )

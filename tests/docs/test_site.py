"""The site's build hooks (tools/docs_hooks.py): plugin READMEs become pages, links work there."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import docs_hooks  # noqa: E402

PLUGINS = {"gent-xml", "gent-json"}
PAGE = "reference/plugins/gent-xml.md"


def _rewrite(markdown: str) -> str:
    return docs_hooks.rewrite_links(markdown, "plugins/gent-xml", PAGE, PLUGINS)


@pytest.mark.parametrize(
    ("written", "on_the_site"),
    [
        ("[gent](../../README.md)", "[gent](../../index.md)"),
        ("[formats](../../docs/formats.md)", "[formats](../../formats.md)"),
        ("[rules](../../docs/formats.md#escaping)", "[rules](../../formats.md#escaping)"),
        ("[hooks](../../docs/reference/hooks.md)", "[hooks](../hooks.md)"),
        ("[json](../gent-json)", "[json](gent-json.md)"),
        ("[json](../gent-json/README.md)", "[json](gent-json.md)"),
        (
            "[PyPI](https://pypi.org/project/gent-xml/)",
            "[PyPI](https://pypi.org/project/gent-xml/)",
        ),
        ("[below](#streaming)", "[below](#streaming)"),
        ('[gent](../../README.md "the project")', '[gent](../../index.md "the project")'),
        ("![diagram](../../docs/assets/x.png)", "![diagram](../../assets/x.png)"),
    ],
)
def test_readme_links_point_at_site_pages(written: str, on_the_site: str) -> None:
    assert _rewrite(f"See {written}.") == f"See {on_the_site}.\n"


def test_links_to_files_without_a_page_become_their_text() -> None:
    assert _rewrite("See [the scanner](gent_xml/scanner.py) and [yaml](../gent-yaml).") == (
        "See the scanner and yaml.\n"
    )


def test_reference_definitions_are_rewritten() -> None:
    assert _rewrite("[docs]: ../../docs/index.md\n") == "[docs]: ../../index.md\n"


def test_links_in_code_blocks_are_left_alone() -> None:
    text = "```markdown\n[gent](../../README.md)\n```\n~~~\n[x](../../docs/a.md)\n~~~\n"
    assert _rewrite(text) == text


def test_every_plugin_readme_gets_a_page_and_a_nav_entry() -> None:
    packages = docs_hooks.plugin_packages()
    folders = sorted(
        path.parent.name
        for path in (ROOT / "plugins").glob("*/README.md")
        if not path.parent.name.startswith("_")
    )
    assert [p.distribution for p in packages] == folders
    nav: list[Any] = [
        {"Reference": [{"Hooks": "reference/hooks.md"}, {"Plugins": docs_hooks.OVERVIEW_URI}]}
    ]
    entries = [{"Overview": docs_hooks.OVERVIEW_URI}] + [
        {p.distribution: p.page_uri} for p in packages
    ]
    assert docs_hooks._expand_plugins_nav(nav, entries)
    assert nav[0]["Reference"][1] == {"Plugins": entries}


def test_a_plugin_page_is_its_readme_then_its_api() -> None:
    xml = next(p for p in docs_hooks.plugin_packages() if p.distribution == "gent-xml")
    page = docs_hooks.plugin_page(xml, {"gent-xml"})
    readme = xml.readme()
    assert page.startswith(readme.splitlines()[0])
    assert "::: gent_xml\n" in page  # gent_xml declares __all__
    assert xml.entry_points() == {"xml": "gent_xml.plugin"}


def test_the_overview_lists_every_plugin_with_its_entry_point() -> None:
    packages = docs_hooks.plugin_packages()
    overview = docs_hooks.overview_page(packages)
    for plugin in packages:
        assert f"[{plugin.distribution}]({plugin.distribution}.md)" in overview
    assert "`xml`<br>`gent_xml.plugin`" in overview

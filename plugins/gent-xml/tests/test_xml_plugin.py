"""Registration of the xml format, and the README's code blocks."""

from __future__ import annotations

from pathlib import Path

import gent_xml.plugin
from gent_xml import XMLFormat

from gent_core.testing import PluginSandbox

README = Path(__file__).resolve().parents[1] / "README.md"
DOCS = Path(__file__).resolve().parents[3] / "docs" / "formats.md"


def test_registered_through_the_hook(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(gent_xml.plugin, "xml")
    registry = gent_plugins.registry()
    assert registry.names("format") == ["xml"]
    fmt = registry.create("format", "xml")
    assert isinstance(fmt, XMLFormat)
    assert fmt.parse("<answer>1</answer>", ["answer"]).get("answer") == ["1"]


def test_options_reach_the_format(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(gent_xml.plugin, "xml")
    fmt = gent_plugins.registry().create("format", "xml", strict=True, observation_name="obs")
    assert fmt.strict and fmt.observation_name == "obs"
    assert fmt.format_observation([]) == ""


def python_blocks(text: str) -> list[str]:
    """The ```python blocks of a Markdown text (fences alone on their lines)."""
    blocks: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if current is None:
            if line == "```python":
                current = []
        elif line == "```":
            blocks.append("\n".join(current))
            current = None
        else:
            current.append(line)
    return blocks


def test_readme_python_blocks_run() -> None:
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})


def test_docs_python_blocks_about_xml_run() -> None:
    blocks = [b for b in python_blocks(DOCS.read_text(encoding="utf-8")) if "gent_xml" in b]
    assert len(blocks) == 5
    for block in blocks:
        exec(compile(block, str(DOCS), "exec"), {})

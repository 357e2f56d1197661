"""Registration of the markdown format, and the README's code blocks."""

from __future__ import annotations

from pathlib import Path

import gent_markdown.plugin
from gent_markdown import MarkdownFormat
from gent_markdown.lines import fence_close, fence_open

from gent_core.testing import PluginSandbox

README = Path(__file__).resolve().parents[1] / "README.md"
DOCS = Path(__file__).resolve().parents[3] / "docs" / "formats.md"


def test_registered_through_the_hook(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(gent_markdown.plugin, "markdown")
    registry = gent_plugins.registry()
    assert registry.names("format") == ["markdown"]
    fmt = registry.create("format", "markdown")
    assert isinstance(fmt, MarkdownFormat)
    assert fmt.parse("# answer\n1", ["answer"]).get("answer") == ["1"]


def test_options_reach_the_format(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(gent_markdown.plugin, "markdown")
    fmt = gent_plugins.registry().create("format", "markdown", level=2, observation_name="obs")
    assert fmt.level == 2 and fmt.observation_name == "obs"
    assert fmt.format_observation([]) == ""


def python_blocks(text: str) -> list[str]:
    """The top-level ```python blocks of a Markdown text, found with this plugin's fence rules."""
    blocks: list[str] = []
    fence: tuple[str, int] | None = None
    current: list[str] | None = None
    for line in text.splitlines():
        if fence is None:
            opened = fence_open(line)
            if opened is not None:
                fence = opened[0], opened[1]
                current = [] if opened[2] == "python" else None
        elif fence_close(line, *fence):
            if current is not None:
                blocks.append("\n".join(current))
            fence, current = None, None
        elif current is not None:
            current.append(line)
    return blocks


def test_readme_python_blocks_run() -> None:
    blocks = python_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})


def test_docs_python_blocks_about_markdown_run() -> None:
    blocks = [b for b in python_blocks(DOCS.read_text(encoding="utf-8")) if "gent_markdown" in b]
    assert len(blocks) == 1
    for block in blocks:
        exec(compile(block, str(DOCS), "exec"), {})

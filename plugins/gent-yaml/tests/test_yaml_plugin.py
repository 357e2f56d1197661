"""gent-yaml as a plugin: registration, entry point, and one end-to-end execution."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path

from gent_yaml import YAMLToolChain, plugin

from gent_core.context import ExecutionContext
from gent_core.formats import IncrementalParser, TextFormat
from gent_core.sections import FormattedSection, ParseResult, Section
from gent_core.testing import PluginSandbox
from gent_core.toolkit import execute_action
from gent_core.tools import tool


@tool
def tag(version: str, count: int) -> dict[str, object]:
    """Tag a release."""
    return {"version": version, "count": count, "notes": "line 1\nline 2"}


class _Plain(TextFormat):
    """Only what an observation needs: ``name: content`` blocks."""

    name = "plain"

    def describe(self, sections: Sequence[Section]) -> str:
        raise AssertionError("unused")

    def parse(self, text: str, sections: Sequence[Section | str]) -> ParseResult:
        raise AssertionError("unused")

    def incremental_parser(self, sections: Sequence[Section | str]) -> IncrementalParser:
        raise AssertionError("unused")

    def format_section(
        self, name: str, content: str, *, attributes: Mapping[str, str] | None = None
    ) -> str:
        return f"== {name}\n{content}"

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        return "\n".join(
            self.format_section(s.name, s.content or self.format_sections(s.children))
            for s in sections
        )

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        return []


def test_the_plugin_registers_the_yaml_toolchain(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "yaml")
    chain = gent_plugins.registry().create("toolchain", "yaml", tools=[tag], max_nodes=50)
    assert isinstance(chain, YAMLToolChain)
    assert chain.max_nodes == 50 and chain.get_tool("tag") is tag


def test_the_entry_point_is_declared() -> None:
    entry_points = metadata.entry_points(group="gent")
    assert any(ep.name == "yaml" and ep.value == "gent_yaml.plugin" for ep in entry_points)


def test_a_call_runs_end_to_end_with_verbatim_strings(tmp_path: Path) -> None:
    chain = YAMLToolChain([tag])
    result = asyncio.run(
        execute_action(
            chain,
            "tool: tag\nargs:\n  version: 1.10\n  count: 3\n",
            _Plain(),
            ExecutionContext(tmp_path),
        )
    )
    assert result.results[0].output == {"version": "1.10", "count": 3, "notes": "line 1\nline 2"}
    assert result.text == (
        "== observation\n== tag\nversion: '1.10'\ncount: 3\nnotes: |-\n  line 1\n  line 2"
    )

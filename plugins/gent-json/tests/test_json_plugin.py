"""gent-json as a plugin: registration, entry point, and one end-to-end execution."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path

from gent_json import JSONToolChain, plugin

from gent_core.context import ExecutionContext
from gent_core.formats import IncrementalParser, TextFormat
from gent_core.sections import FormattedSection, ParseResult, Section
from gent_core.testing import PluginSandbox
from gent_core.toolkit import execute_action
from gent_core.tools import tool


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


class _Plain(TextFormat):
    """Only what an observation needs: ``name: content`` lines."""

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
        return f"{name}: {content}"

    def format_sections(self, sections: Sequence[FormattedSection]) -> str:
        return "\n".join(
            self.format_section(s.name, s.content or self.format_sections(s.children))
            for s in sections
        )

    def stop_sequences(self, sections: Sequence[str]) -> list[str]:
        return []


def test_the_plugin_registers_the_json_toolchain(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "json")
    chain = gent_plugins.registry().create("toolchain", "json", tools=[add], indent=2)
    assert isinstance(chain, JSONToolChain)
    assert chain.indent == 2 and chain.get_tool("add") is add


def test_the_entry_point_is_declared() -> None:
    entry_points = metadata.entry_points(group="gent")
    assert any(ep.name == "json" and ep.value == "gent_json.plugin" for ep in entry_points)


def test_a_call_runs_end_to_end(tmp_path: Path) -> None:
    chain = JSONToolChain([add])
    result = asyncio.run(
        execute_action(
            chain,
            '```json\n[{"tool": "add", "args": {"a": 2, "b": 3}}, {"name": "add", '
            '"arguments": "{\\"a\\": 1, \\"b\\": 1}"}]\n```',
            _Plain(),
            ExecutionContext(tmp_path),
        )
    )
    assert [r.output for r in result.results] == [5, 2]
    assert result.text == "observation: add: 5\nadd: 2"

"""The ``files`` plugin through the registry and the agent config: discovery by entry point,
options from YAML, the ``allow_writes`` gate, and a whole agent run that reads and edits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from gent_tools_files import EditFile, ReadFile, plugin

from gent_core import (
    Agent,
    ConfigError,
    PluginSelection,
    Registry,
    build_plugin_manager,
    parse_config,
)
from gent_core.testing import PluginSandbox

NAMES = ["read_file", "list_dir", "search_text", "write_file", "edit_file"]


def test_installed_entry_point_is_discovered() -> None:
    manager = build_plugin_manager(selection=PluginSelection())  # not strict: others may fail
    info = manager.plugin_infos["files"]
    assert info.status == "loaded", info.error
    assert info.distribution == "gent-tools-files"
    registry = Registry.from_plugin_manager(manager)
    assert set(NAMES) <= set(registry.names("tool"))
    tool = registry.create("tool", "read_file", max_chars=20000)
    assert isinstance(tool, ReadFile)
    assert tool.options.max_chars == 20000


def test_registered_in_a_sandbox(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "files")
    registry = gent_plugins.registry()
    assert sorted(registry.names("tool")) == sorted(NAMES)
    assert registry.get("tool", "files:edit_file").factory is EditFile


def _tools(text: str, work: Path) -> Any:
    """The tools of the agent the config describes, in order."""
    loaded = parse_config(text, source="agent.yaml", base_dir=work)
    registry = Registry.from_plugin_manager(build_plugin_manager())
    agent = Agent.from_config(loaded, registry=registry)
    assert agent.toolchain is not None
    return agent.toolchain.tools


BASE = "model: {name: scripted, outputs: []}\nformat: xml\ntoolchain: json\n"


def test_options_come_from_the_agent_config(work: Path) -> None:
    read, search, listing = _tools(
        BASE + "tools:\n  - {name: read_file, max_chars: 20000, max_lines: 50}\n"
        "  - {name: search_text, time_limit: 2.5, skip_dirs: [build]}\n  - list_dir\n",
        work,
    )
    assert (read.options.max_chars, read.options.max_lines) == (20000, 50)
    assert (search.options.time_limit, search.options.skip_dirs) == (2.5, ("build",))
    assert listing.options.max_entries == 200


def test_bad_options_are_config_errors_naming_file_line_and_key(work: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        _tools(
            BASE + "tools:\n  - {name: read_file, max_char: 5}\n"
            "  - {name: list_dir, max_entries: lots}\n",
            work,
        )
    text = str(caught.value)
    assert "agent.yaml, line 5" in text
    assert "max_char" in text and "max_chars" in text  # the unknown one and what is accepted
    assert "line 6" in text and "max_entries" in text


def test_writing_tools_need_allow_writes(work: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        _tools(BASE + "tools: [read_file, write_file, edit_file]\n", work)
    assert "allow_writes: true" in str(caught.value)
    assert "'write_file'" in str(caught.value) and "'edit_file'" in str(caught.value)
    tools = _tools(BASE + "allow_writes: true\ntools: [read_file, write_file, edit_file]\n", work)
    assert [tool.name for tool in tools] == ["read_file", "write_file", "edit_file"]


def _action(tool: str, **args: Any) -> str:
    call = json.dumps({"tool": tool, "args": args})
    return f"<thinking>Use {tool}.</thinking><action>{call}</action>"


def test_an_agent_reads_and_edits_a_file(work: Path) -> None:
    (work / "notes.txt").write_text("status: draft\nowner: ada\n")
    (work / "big.log").write_text("".join(f"event {n}\n" for n in range(1, 5001)))
    outputs = [
        _action("read_file", path="notes.txt"),
        _action("edit_file", path="notes.txt", old_text="status: final", new_text="x"),
        _action("edit_file", path="notes.txt", old_text="status: draft", new_text="status: done"),
        _action("read_file", path="big.log"),
        _action("read_file", path="../outside/secret.txt"),
        "<thinking>Done.</thinking><answer>notes.txt now says status: done</answer>",
    ]
    config = {
        "model": {"name": "scripted", "outputs": outputs},
        "format": "xml",
        "toolchain": "json",
        "tools": ["read_file", {"name": "edit_file"}, "list_dir"],
        "allow_writes": True,
        "working_directory": str(work),
        "max_steps": 8,
    }
    loaded = parse_config(yaml.safe_dump(config), source="agent.yaml", base_dir=work)
    agent = Agent.from_config(loaded, plugin_manager=build_plugin_manager())
    result = agent.run_sync("Mark the notes as done.")

    assert result.stop_reason == "answer", result.message
    assert result.answer == "notes.txt now says status: done"
    assert (work / "notes.txt").read_text() == "status: done\nowner: ada\n"
    read, miss, edit, big, escape = (step.calls[0] for step in result.steps[:5])
    assert read.status == "success"
    assert "status: draft\nowner: ada" in result.steps[0].followup
    assert miss.status == "error"  # the model reads why and tries again
    assert "old_text was not found in 'notes.txt'" in result.steps[1].followup
    assert edit.status == "success"
    assert "Edited notes.txt: replaced 1 occurrence (line 1)" in result.steps[2].followup
    assert big.status == "success"
    assert "It was added to the clipboard" in result.steps[3].followup
    assert [entry["path"] for entry in result.steps[3].clipboard] == ["big.log"]
    assert "event 1\n" in result.steps[3].followup  # the clipboard shows the file's beginning
    assert escape.status == "error"
    assert "'..' climbs above the working directory" in result.steps[4].followup
    assert (work.parent / "outside" / "secret.txt").read_text() == "top secret\n"

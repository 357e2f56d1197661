"""Helpers of the gent-mcp tests: the test servers, agents from config text, and the child
processes of the test process (to check that no MCP server is left running)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from gent_core import Agent, RunResult, parse_config
from gent_core.testing import PluginSandbox

SERVERS = Path(__file__).parent / "servers"
TOOLBOX = SERVERS / "toolbox_server.py"
PYTHON = sys.executable


@dataclass(frozen=True)
class ChildProcess:
    pid: int
    state: str
    command: str


def _processes() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, state, command line) of every process, read from /proc."""
    table: dict[int, tuple[int, str, str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        table[int(entry)] = (int(fields[1]), fields[0], command.decode(errors="replace").strip())
    return table


def child_processes(root: int | None = None) -> list[ChildProcess]:
    """Every descendant of ``root`` (this process by default), zombies included."""
    table = _processes()
    parents = {root or os.getpid()}
    found: list[ChildProcess] = []
    changed = True
    while changed:
        changed = False
        for pid, (parent, state, command) in table.items():
            if parent in parents and pid not in parents:
                parents.add(pid)
                found.append(ChildProcess(pid, state, command))
                changed = True
    return found


def wait_until_gone(keep: Collection[int], seconds: float = 5.0) -> list[ChildProcess]:
    """The child processes not in ``keep``, after waiting up to ``seconds`` for them to go.

    The wait only absorbs the moment the kernel needs to remove a process that already
    exited; gent waits for its servers itself before ``aclose`` returns.
    """
    deadline = time.monotonic() + seconds
    while True:
        left = [process for process in child_processes() if process.pid not in keep]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def pid_alive(pid: int) -> bool:
    """Whether the process ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def agent_from(sandbox: PluginSandbox, text: str) -> Agent:
    """An agent from config ``text``, with the sandbox's plugins."""
    loaded = parse_config(text, source="agent.yaml", middleware_names=lambda: ())
    return Agent.from_config(loaded, registry=sandbox.registry(), plugin_manager=sandbox.manager)


def toolbox_entry(name: str = "toolbox", **options: object) -> str:
    """A ``tools`` entry (flow YAML) for the toolbox test server."""
    extra = "".join(f", {key}: {value}" for key, value in options.items())
    return f"mcp: {{name: {name}, command: [{PYTHON}, {TOOLBOX}]{extra}}}"


def agent_config(*outputs: str, tools: Sequence[str], extra: str = "", images: bool = False) -> str:
    """An agent config: a scripted model replaying ``outputs``, xml, json and ``tools``."""
    script = "".join(f"    - '{output}'\n" for output in outputs) or "    []\n"
    model = "model:\n  name: scripted\n" + ("  supports_images: true\n" if images else "")
    listed = "".join(f"  - {entry}\n" for entry in tools)
    return f"{model}  outputs:\n{script}format: xml\ntoolchain: json\ntools:\n{listed}{extra}"


def action(tool: str, args: str = "{}") -> str:
    """An action section calling ``tool`` with ``args`` (JSON text)."""
    return f'<action>{{"tool": "{tool}", "args": {args}}}</action>'


def run_and_close(agent: Agent, task: str = "go") -> RunResult:
    """Run ``agent`` on ``task`` in a new event loop, closing it (its servers) afterwards."""

    async def scenario() -> RunResult:
        try:
            return await agent.run(task)
        finally:
            await agent.aclose()

    return asyncio.run(scenario())

"""Ctrl-C stops ``gent run`` whatever it is doing (issue 17, item 6).

Each case starts the real command in a subprocess on a part that would run for hours (see
``tests/cli/slow_plugin.py``), waits until that part has started, sends SIGINT and expects
exit status 130 with one line saying the run was interrupted. The 30 s allowed for the exit
only guards against a hang: the work would take hours. (The latency is measured, not
asserted: about 0.05 s when the run ends by cancellation, 0.55 s when the main thread is
blocked and ``KeyboardInterrupt`` has to be raised in it.)
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.cli.slow_plugin import CATASTROPHIC, SLOW_TEXT, install_slow_plugin

MARKER = {"middleware": [{"name": "marker", "path": "started"}]}
HOURS_OF_PATTERN = {"GENT_PATTERN_TIMEOUT": "36000"}  # the deadline no longer saves the run


def act(tool: str, args: dict[str, Any]) -> str:
    return f"<action>{json.dumps({'tool': tool, 'args': args})}</action>"


def scripted(*outputs: str) -> dict[str, Any]:
    return {"name": "scripted", "outputs": list(outputs)}


def gent_run(
    work: Path, config: dict[str, Any], env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    config = {"format": "xml", "toolchain": "json", "timeouts": {"tool": 36000}, **config}
    (work / "agent.yaml").write_text(json.dumps(config))
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    environment.update(install_slow_plugin(work / "site"), **(env or {}))
    return subprocess.Popen(
        [sys.executable, "-m", "gent_core", "run", "agent.yaml", "do it", "--no-color"],
        cwd=work,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def interrupt_when_started(process: subprocess.Popen[str], marker: Path) -> tuple[int, str]:
    """Wait for ``marker``, send SIGINT, and return the exit status and the error output."""
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the slow part never started"
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, stderr


INTERRUPTED = re.compile(r"gent run: interrupted; continue with: gent run --resume [0-9A-Z]{26}")
"""What an interrupted run prints: the run was logged, and it says how to resume it."""

CASES: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
    "sync tool computing in a thread": (
        {"model": scripted(act("spin", {})), "tools": ["spin"]},
        {},
    ),
    "async tool ignoring its cancellation": (
        {"model": scripted(act("stubborn", {})), "tools": ["stubborn"]},
        {},
    ),
    "async tool blocking the event loop": (
        {"model": scripted(act("hog", {})), "tools": ["hog"]},
        {},
    ),
    "schema check of tool arguments": (
        {"model": scripted(act("lookup", {"code": SLOW_TEXT})), "tools": ["lookup"], **MARKER},
        HOURS_OF_PATTERN,
    ),
    "pattern of the answer schema": (
        {
            "model": scripted(f'<answer>{{"code": "{SLOW_TEXT}"}}</answer>'),
            "termination": {
                "name": "json",
                "schema": {"type": "object", "properties": {"code": {"pattern": CATASTROPHIC}}},
            },
            **MARKER,
        },
        HOURS_OF_PATTERN,
    ),
    "model stream ignoring its cancellation": (
        {"model": {"name": "stuck", "marker": "started"}},
        {},
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_ctrl_c_stops_gent_run(tmp_path: Path, case: str) -> None:
    config, env = CASES[case]
    process = gent_run(tmp_path, config, env)
    status, stderr = interrupt_when_started(process, tmp_path / "started")
    assert status == 130, stderr
    assert INTERRUPTED.fullmatch(stderr.strip()), stderr


def test_ctrl_c_twice_in_a_row_exits_as_cleanly(tmp_path: Path) -> None:
    """Two Ctrl-C while the event loop is blocked: the second one lands while the first is
    being handled, and the exit is the same."""
    process = gent_run(tmp_path, {"model": scripted(act("hog", {})), "tools": ["hog"]})
    marker = tmp_path / "started"
    deadline = time.monotonic() + 60
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    status, stderr = interrupt_when_started(process, marker)
    assert status == 130, stderr
    assert INTERRUPTED.fullmatch(stderr.strip()), stderr


def test_a_run_after_a_tool_that_swallows_its_cancellation_prints_no_error(
    tmp_path: Path,
) -> None:
    """The tool times out, ignores the cancellation and is closed after its grace; the run
    answers, and nothing is written on stderr (it used to print "unhandled exception during
    asyncio.run() shutdown ... cannot reuse already awaited coroutine")."""
    config = {
        "model": scripted(act("stubborn", {}), "<answer>gave up</answer>"),
        "tools": ["stubborn"],
        "timeouts": {"tool": 0.2},
    }
    process = gent_run(tmp_path, config)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert "gave up" in stdout
    assert stderr == ""


AGENT_SCRIPT = """
import asyncio

from gent_json.chain import JSONToolChain
from gent_xml.format import XMLFormat

from gent_core._agent import Agent
from gent_core.testing import ScriptedModel
from gent_core.tools import tool


@tool(timeout=0.1)
async def stubborn() -> str:
    \"\"\"Swallow every cancellation; on close, run the cleanup and go.\"\"\"
    while True:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            pass


call = '<action>{"tool": "stubborn", "args": {}}</action>'
agent = Agent(
    ScriptedModel([call, call, "<answer>done</answer>"]),
    XMLFormat(),
    JSONToolChain(),
    tools=[stubborn],
)
print(agent.run_sync("go").answer)
"""


def test_agent_run_after_tools_that_swallow_their_cancellation_prints_no_error(
    tmp_path: Path,
) -> None:
    """The same through ``Agent.run``, with two abandoned calls waiting on an event."""
    script = tmp_path / "agent_script.py"
    script.write_text(AGENT_SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    assert done.stderr == ""


def test_an_escalation_interrupted_before_it_started_ends_the_command_cleanly() -> None:
    """A second Ctrl-C can land inside the first one's ``Thread.start()``, before the thread
    reports it started; finishing the command must not raise, and the escalation, if its
    thread runs afterwards, sends no signal."""
    import asyncio
    import threading

    from gent_core._cli.interrupt import _Interrupts

    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    loop = asyncio.new_event_loop()
    try:
        interrupts = _Interrupts(loop, grace=0.0)
        late = threading.Thread(target=interrupts._escalate)
        interrupts.escalation = late  # created, never reported started
        interrupts.finish()
        late.start()
        late.join()
        time.sleep(0)  # let a pending signal's handler run
        assert received == []
    finally:
        loop.close()
        signal.signal(signal.SIGINT, previous)

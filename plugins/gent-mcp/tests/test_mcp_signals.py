"""SIGTERM and SIGHUP end ``gent run`` as Ctrl-C does (issue 24, section 1): the run is
cancelled, its MCP servers' process groups are ended (a server busy in a call, and a worker
another server started), the run is logged as interrupted, and the exit status is 128 + the
signal (143, 129).

The processes of a test are found by a marker in their environment, not by parentage: a
process that outlives ``gent run`` is re-parented to PID 1 and is no child of the test any
more. The waits are generous bounds against a hang, never a speed check.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_helpers import PYTHON, SERVERS, TOOLBOX, action, agent_config, pid_alive

pytestmark = [pytest.mark.slow, pytest.mark.alone]  # signals and their timing: one at a time

SPAWNER = SERVERS / "spawn_server.py"
MARK = "GENT_SIGNAL_TEST_MARK"
RESUME_HINT = re.compile(r"gent run: interrupted; continue with: gent run --resume ([0-9A-Z]{26})")


def marked_processes(marker: str) -> list[tuple[int, str]]:
    """(pid, command line) of every live process whose environment holds the marker."""
    needle = f"{MARK}={marker}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            environment = Path(f"/proc/{entry}/environ").read_bytes()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue  # gone, or another user's
        if needle in environment.split(b"\0"):
            found.append((int(entry), command.replace(b"\0", b" ").decode(errors="replace")))
    return found


def left_running(marker: str, seconds: float = 10.0) -> list[tuple[int, str]]:
    """The marked processes still there after up to ``seconds`` (the kernel's moment to remove
    processes that were killed)."""
    deadline = time.monotonic() + seconds
    while (left := marked_processes(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def wait_for(path: Path, process: subprocess.Popen[str], seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.05)


class Run:
    """``gent run`` of an agent with two stdio MCP servers: ``spawner`` (its tool starts
    ``sleep 300`` and answers) and ``toolbox`` (its ``sleep`` tool is busy for an hour)."""

    def __init__(self, work: Path, *, spawn_first: bool = True) -> None:
        self.work = work
        self.marker = uuid.uuid4().hex
        self.worker_pid = work / "worker.pid"
        self.server_pid = work / "toolbox.pid"
        self.sleeping = work / "toolbox.pid.sleeping"
        env = f"env: {{{MARK}: {self.marker}}}"
        spawner = (
            f"mcp: {{name: spawner, command: [{PYTHON}, {SPAWNER}, {self.worker_pid}], {env}}}"
        )
        toolbox = (
            f"mcp: {{name: toolbox, command: [{PYTHON}, {TOOLBOX}, --pid-file, "
            f"{self.server_pid}], {env}}}"
        )
        calls = [action("spawn"), action("sleep", '{"seconds": 3600}')]
        outputs = (calls if spawn_first else calls[1:]) + ["<answer>never</answer>"]
        config = work / "agent.yaml"
        config.write_text(agent_config(*outputs, tools=[spawner, toolbox]))
        environment = {
            key: value for key, value in os.environ.items() if not key.startswith("GENT_")
        }
        environment.update({MARK: self.marker, "GENT_HOME": str(work / "home")})
        self.environment = environment
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gent_core", "run", str(config), "go", "--no-color"],
            cwd=work,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def stop_with(self, number: int) -> str:
        """Send signal ``number``, wait for the exit, return the error output."""
        try:
            self.process.send_signal(number)
            _, stderr = self.process.communicate(timeout=60)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        return stderr

    def logged(self, run_id: str) -> str:
        shown = subprocess.run(
            [sys.executable, "-m", "gent_core", "logs", "show", run_id, "--no-color"],
            cwd=self.work,
            env=self.environment,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert shown.returncode == 0, shown.stderr
        return shown.stdout


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["TERM", "HUP"])
def test_a_signal_ends_gent_run_and_every_process_it_started(tmp_path: Path, number: int) -> None:
    """The issue's reproduction: a worker started by one server, another server busy for an
    hour; the signal comes during the busy call."""
    run = Run(tmp_path)
    try:
        wait_for(run.sleeping, run.process)  # the worker was started, the busy call runs
        assert marked_processes(run.marker), "the marker does not reach the servers"
        worker = int(run.worker_pid.read_text())
        stderr = run.stop_with(number)
    finally:
        left = left_running(run.marker)
        for pid, _ in left:  # never leave them behind, whatever the outcome
            with_kill(pid)
    assert run.process.returncode == 128 + number, stderr
    assert "Traceback" not in stderr
    hint = RESUME_HINT.fullmatch(stderr.strip().splitlines()[-1])  # the last line (warnings
    assert hint, stderr  # about the toolbox's tool names come first)
    assert not left, f"left running after gent run: {left}"
    assert worker not in {pid for pid, _ in left}
    shown = run.logged(hint.group(1))
    assert "cancelled" in shown, shown


def with_kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    number=st.sampled_from([signal.SIGTERM, signal.SIGHUP]),
    spawn_first=st.booleans(),
    delay=st.floats(min_value=0.0, max_value=1.5),
)
def test_a_signal_at_any_point_of_a_run_leaves_no_process(
    tmp_path_factory: pytest.TempPathFactory, number: int, spawn_first: bool, delay: float
) -> None:
    """The signal comes at a random moment once the agent started opening its servers:
    while they start, list their tools, run a call, or stay busy in one."""
    run = Run(tmp_path_factory.mktemp("run"), spawn_first=spawn_first)
    try:
        wait_for(run.server_pid, run.process)  # a server process exists: the run is under way
        time.sleep(delay)  # the random point (an offset, not a measurement)
        stderr = run.stop_with(number)
    finally:
        left = left_running(run.marker)
        for pid, _ in left:
            with_kill(pid)
    assert run.process.returncode == 128 + number, stderr
    assert "Traceback" not in stderr
    assert not left, f"left running after gent run: {left}"


def test_sigterm_ends_gent_mcp_serve_and_the_servers_it_opened(tmp_path: Path) -> None:
    """How an MCP client ends its server: SIGTERM. The config's own stdio server (in a session
    of its own, out of reach of the client's signal) is ended too."""
    pid_file = tmp_path / "toolbox.pid"
    config = tmp_path / "tools.yaml"
    config.write_text(
        f"tools:\n  - mcp: {{name: toolbox, command: [{PYTHON}, {TOOLBOX}, --pid-file, "
        f"{pid_file}]}}\n"
    )
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "gent_core", "mcp-serve", str(config)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
    )
    try:
        deadline = time.monotonic() + 120
        while not pid_file.exists():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the config's server never started"
            time.sleep(0.05)
        server = int(pid_file.read_text())
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    deadline = time.monotonic() + 10  # the kernel's moment to remove a killed process
    while pid_alive(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = pid_alive(server)
    if alive:
        with_kill(server)
    assert process.returncode == 143, stderr
    assert b"Traceback" not in stderr
    assert not alive, "the config's MCP server outlived gent mcp-serve"

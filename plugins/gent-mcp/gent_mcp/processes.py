"""Server processes that must never outlive gent.

The MCP SDK starts a stdio server in a session of its own (so a Ctrl-C in the terminal does
not reach it) and stops it when its client is closed: stdin closed, two seconds to exit, then
its process group is terminated. When gent has to exit before that (a second Ctrl-C, or the
one-second bound of ``gent run`` after Ctrl-C, see docs/command-line.md on Ctrl-C), nobody
would stop the server. So the connection notes which process it started
(:func:`new_server`: the new child process leading its own session, found in ``/proc`` on
Linux), and an exit handler kills the process group of every server still noted
(:func:`forget` removes one once the SDK stopped it).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
from pathlib import Path

__all__ = ["children", "forget", "new_server"]

_servers: set[int] = set()


def children() -> set[int]:
    """The process ids of this process's children (empty where ``/proc`` is not readable)."""
    me = os.getpid()
    found: set[int] = set()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 1 and fields[1] == str(me):
            found.add(int(entry))
    return found


def new_server(before: set[int]) -> int | None:
    """The server process started since ``before`` was taken: the one new child leading its
    own process group; noted so that it is killed at exit if it still runs. ``None`` when
    there is not exactly one.
    """
    leaders = []
    for pid in children() - before:
        with contextlib.suppress(OSError):
            if os.getpgid(pid) == pid:
                leaders.append(pid)
    if len(leaders) != 1:
        return None
    _servers.add(leaders[0])
    return leaders[0]


def forget(pid: int | None) -> None:
    """The server ``pid`` was stopped: nothing to kill at exit."""
    if pid is not None:
        _servers.discard(pid)


@atexit.register
def _kill_servers() -> None:
    """Kill the process group of every server still noted and still a child of this process
    (a pid the system gave to another process since is left alone).
    """
    mine = children()
    for pid in _servers & mine:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
    _servers.clear()

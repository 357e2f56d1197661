"""A real MCP server (the SDK's MCPServer, over stdio) that starts a child process of its own
and leaves it running when it exits, as servers with workers do.

Run as ``python family_server.py CHILD_PID_FILE [--child-ignores-term] [--server-ignores-term]``:
the server starts ``sleep 300`` (under ``sh`` ignoring SIGTERM with ``--child-ignores-term``)
and writes the child's process id to CHILD_PID_FILE. It exits when its stdin closes, and
never waits for or stops its child. With ``--server-ignores-term`` the server ignores SIGTERM
and never exits by itself.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from mcp.server.mcpserver import MCPServer

pid_file = Path(sys.argv[1])
script = "trap '' TERM; sleep 300" if "--child-ignores-term" in sys.argv else "exec sleep 300"
child = subprocess.Popen(["sh", "-c", script])
pid_file.write_text(str(child.pid))

server = MCPServer("family")


@server.tool(description="Answer pong.")
def ping() -> str:
    return "pong"


if __name__ == "__main__":
    if "--server-ignores-term" in sys.argv:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        server.run("stdio")
        while True:  # stdin closed: stay, until killed
            time.sleep(1)
    server.run("stdio")

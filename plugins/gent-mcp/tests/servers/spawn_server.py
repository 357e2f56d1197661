"""A real MCP server (the SDK's MCPServer, over stdio) whose tool starts ``sleep 300`` and
answers at once, leaving it running, as a server that starts workers does.

Run as ``python spawn_server.py PID_FILE``: the ``spawn`` tool writes the process id of the
``sleep`` it started to PID_FILE.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer

pid_file = Path(sys.argv[1])
server = MCPServer("spawner")


@server.tool(description="Start a worker process and answer at once.")
def spawn() -> str:
    worker = subprocess.Popen(["sleep", "300"])
    pid_file.write_text(str(worker.pid))
    return f"started worker {worker.pid}"


if __name__ == "__main__":
    server.run("stdio")

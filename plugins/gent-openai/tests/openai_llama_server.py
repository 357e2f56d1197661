"""The handle on the real llama_cpp.server the slow tests start (see ``conftest.py``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class LlamaServer:
    """A running llama_cpp.server: its base URL and its process id."""

    url: str
    pid: int

    def cpu_seconds(self) -> float:
        """The CPU time the server process has used so far (user and system, all threads)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

"""The handle on the real llama_cpp.server the slow tests start (see ``conftest.py``)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class LlamaServer:
    """A running llama_cpp.server: its base URL and its process id."""

    url: str
    pid: int

    def busy(self) -> bool:
        """Whether a thread of the server is running or waiting for a core (state ``R``): true
        throughout a generation, whatever the machine's load; false when it waits for work."""
        for stat in Path(f"/proc/{self.pid}/task").glob("*/stat"):
            try:
                state = stat.read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):  # the thread ended meanwhile
                continue
            if state == "R":
                return True
        return False

    def busy_samples(self, samples: int) -> int:
        """How many of ``samples`` looks at the server, 20 ms apart, find it :meth:`busy`."""
        found = 0
        for _ in range(samples):
            found += self.busy()
            time.sleep(0.02)
        return found

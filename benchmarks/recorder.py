"""Benchmark results as JSON, so one report can put every benchmark side by side.

Each ``bench_*.py`` script prints its own tables and, at the end, saves what it measured with
a :class:`Recorder`: ``benchmarks/results/<bench>.json``, holding the machine, the date, the
command, and per measurement gent's figure next to the figure it is compared with (a peer
framework's, measured in the same run, or a baseline), plus the targets and their verdicts.
``benchmarks/report.py`` (``python3 dev.py bench``) turns those files into
``docs/benchmarks.md``.

A target is ``met``, ``missed``, or ``retired``: a target that cannot be reached whatever gent
does, with the reason and the measurement that shows why (and what is reported instead).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any, Literal

__all__ = ["RESULTS", "Recorder", "machine"]

RESULTS = Path(__file__).resolve().parent / "results"
"""Where every benchmark writes its JSON file."""

Status = Literal["met", "missed", "retired"]


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> dict[str, Any]:
    """The machine the figures come from: CPU model, cores, Python, operating system."""
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count() or 1,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "system": f"{platform.system()} {platform.release()} ({platform.machine()})",
    }


def load_average() -> float | None:
    """The machine's 1-minute load average (other processes compete for the cores)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


class Recorder:
    """Collects one benchmark's figures and writes them as JSON.

    Args:
        bench: The benchmark's file stem (``"bench_formats"``): the JSON file's name.
        title: A short title for the report (``"Formats: parsing and streaming"``).
        about: One or two sentences on what is measured and how (the report shows them).
    """

    def __init__(self, bench: str, title: str, about: str) -> None:
        self.bench = bench
        self.title = title
        self.about = about
        self.started = dt.datetime.now(dt.timezone.utc)
        self.load_at_start = load_average()
        self.measurements: list[dict[str, Any]] = []
        self.targets: list[dict[str, Any]] = []
        self.notes: list[str] = []

    def measure(
        self,
        name: str,
        gent: float,
        unit: str,
        *,
        versus: str | None = None,
        other: float | None = None,
        lower_is_better: bool = True,
        note: str = "",
        headline: bool = False,
        words: str = "",
    ) -> None:
        """Record one measurement.

        Args:
            name: What was measured (``"one-shot parse of a 48 KiB output"``).
            gent: gent's figure.
            unit: Its unit: ``"s"`` (times, in seconds), or a word (``"tasks/min"``, ``"x"``).
            versus: What it is compared with, measured in the same run (``"LangChain
                XMLOutputParser.parse"``, ``"direct function call"``), if anything.
            other: That figure, in the same unit.
            lower_is_better: Whether a smaller figure is better (times) or a larger one
                (throughput, tasks solved).
            note: Anything the reader needs to read the row right.
            headline: Show it in the report's summary (the benchmark's main comparison).
            words: How the report states the comparison, where "faster"/"slower" would
                mislead (``"9.9x the time for 10x the input"``).
        """
        self.measurements.append(
            {
                "name": name,
                "gent": gent,
                "unit": unit,
                "versus": versus,
                "other": other,
                "lower_is_better": lower_is_better,
                "note": note,
                "headline": headline,
                "words": words,
            }
        )

    def target(
        self,
        goal: str,
        measured: str,
        status: Status,
        *,
        reason: str = "",
        instead: str = "",
    ) -> None:
        """Record a target and its verdict.

        Args:
            goal: The target as stated (``"streaming within 3x of the one-shot parse"``).
            measured: The figure that decides it (``"41x"``).
            status: ``"met"``, ``"missed"``, or ``"retired"`` (cannot be reached by any
                implementation; ``reason`` says why).
            reason: Why it is retired (or missed), with the measurement that shows it.
            instead: What is reported in its place, for a retired target.
        """
        if status == "retired" and not reason:
            raise ValueError(f"a retired target needs its reason: {goal}")
        self.targets.append(
            {
                "goal": goal,
                "measured": measured,
                "status": status,
                "reason": reason,
                "instead": instead,
            }
        )

    def note(self, text: str) -> None:
        """Add a remark shown under the benchmark's tables."""
        self.notes.append(text)

    def save(self, directory: Path | None = None) -> Path:
        """Write ``<directory>/<bench>.json`` (default :data:`RESULTS`); return its path."""
        folder = directory or Path(os.environ.get("GENT_BENCH_RESULTS", RESULTS))
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self.bench}.json"
        finished = dt.datetime.now(dt.timezone.utc)
        data = {
            "bench": self.bench,
            "title": self.title,
            "about": self.about,
            "date": self.started.strftime("%Y-%m-%d %H:%M UTC"),
            "seconds": round((finished - self.started).total_seconds(), 1),
            "command": " ".join(["python", *sys.argv]),
            "machine": machine(),
            "load": [self.load_at_start, load_average()],
            "measurements": self.measurements,
            "targets": self.targets,
            "notes": self.notes,
        }
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"\nresults written to {path}")
        return path

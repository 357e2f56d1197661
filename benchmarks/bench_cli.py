"""Start-up cost of the command line: ``gent --version``, ``--help``, ``plugins``, ``run --help``.

Each command runs as its own process; the figure is that process's CPU time (user + system,
from the operating system's accounting of the finished child), the median of several runs
after a warm-up, and is given as a ratio to ``python -c "import gent_core"`` measured the
same way in the same run, so the ratios hold when the machine is loaded. When the ``llm``
command is installed, ``llm --version`` and ``llm plugins`` are measured as a peer.

Each command is also run once under ``python -X importtime``; the report names the packages
whose imports cost the most (their modules' own import time, summed). The floor of any
command that finds plugin commands, reading the installed entry points with
:mod:`importlib.metadata`, is measured too.

``gent --help`` and ``gent plugins`` read the plugin discovery cache, which the warm-up run
fills; the same two commands with the cache off (``GENT_NO_CACHE=1``) are shown too, without
a target.

Run: ``python benchmarks/bench_cli.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

PYTHON = sys.executable
GENT: list[str] = [PYTHON, "-m", "gent_core"]
BASELINE = "python -c 'import gent_core'"

COMMANDS: dict[str, list[str]] = {
    "gent --version": ["--version"],
    "gent --help": ["--help"],
    "gent plugins": ["plugins"],
    "gent run --help": ["run", "--help"],
}
"""What is measured: a label and the arguments given to gent."""

TARGETS: dict[str, float] = {
    "gent --version": 2.5,
    "gent --help": 2.5,
    "gent plugins": 5.0,
    "gent run --help": 5.0,
}
"""The largest ratio to ``import gent_core`` each command may reach."""

ENTRY_POINTS = "import gent_core, importlib.metadata as m; m.entry_points(group='gent')"
"""What finding the installed plugins costs at least (the standard library's entry points)."""

REASONS: dict[str, str] = {
    "gent --help": "it lists plugin commands: from the discovery cache when it is valid, else "
    "by reading the installed entry points (importlib.metadata alone costs {floor:.2f}x "
    "import gent_core) and loading every plugin",
    "gent plugins": "it lists every component: from the discovery cache when it is valid, "
    "else by calling every registration hook, which imports the component modules (the tool "
    "plugins' modules import pydantic)",
}
"""Why a target may be missed, shown with the verdict (the figures are measured)."""

PEERS: dict[str, list[str]] = {"llm --version": ["--version"], "llm plugins": ["plugins"]}

UNCACHED: dict[str, list[str]] = {
    "gent --help, cache off": ["--help"],
    "gent plugins, cache off": ["plugins"],
}
"""Shown for information, without a target: the commands that read the plugin discovery cache,
run with ``GENT_NO_CACHE=1`` (what the first run after an install, upgrade or edit costs)."""


def cpu_seconds(command: Sequence[str], **extra: str) -> float:
    """The CPU time (user + system) of one run of ``command``, as its own process, with the
    environment variables ``extra`` added.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=False, capture_output=True, env={**_environment(), **extra})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    # As installed: modules load from their cached bytecode (written by the warm-up run),
    # not compiled from source on every start.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["COLUMNS"] = "100"
    return env


def median_cpu(command: Sequence[str], runs: int, **extra: str) -> float:
    """The median CPU time of ``runs`` runs of ``command``, after one warm-up run."""
    cpu_seconds(command, **extra)
    return statistics.median(cpu_seconds(command, **extra) for _ in range(runs))


def import_offenders(arguments: Sequence[str], top: int = 8) -> list[tuple[str, float]]:
    """The packages whose modules' own import time is largest when gent runs ``arguments``
    (gent_core by subpackage): ``[(package, seconds), ...]``, largest first.
    """
    found = subprocess.run(
        [PYTHON, "-X", "importtime", "-m", "gent_core", *arguments],
        check=False,
        capture_output=True,
        text=True,
        env=_environment(),
    )
    by_package: dict[str, float] = {}
    for line in found.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        own, _, name = (part.strip() for part in line[len("import time:") :].split("|"))
        if not own.isdigit():
            continue  # the header line
        parts = name.split(".")
        # gent_core's own modules by subpackage (gent_core._config), others by package.
        package = ".".join(parts[:2]) if parts[0] == "gent_core" else parts[0]
        by_package[package] = by_package.get(package, 0.0) + int(own) / 1e6
    return sorted(by_package.items(), key=lambda item: -item[1])[:top]


def modules_loaded(arguments: Sequence[str]) -> int:
    """How many modules are in ``sys.modules`` when gent has run ``arguments``."""
    script = (
        "import sys, atexit\n"
        "atexit.register(lambda: sys.__stderr__.write(f'\\nMODULES {len(sys.modules)}\\n'))\n"
        "import runpy\n"
        f"sys.argv = ['gent', *{list(arguments)!r}]\n"
        "runpy.run_module('gent_core', run_name='__main__')\n"
    )
    found = subprocess.run(
        [PYTHON, "-c", script], check=False, capture_output=True, text=True, env=_environment()
    )
    for line in found.stderr.splitlines():
        if line.startswith("MODULES "):
            return int(line.split()[1])
    return -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="counted runs of each command")
    args = parser.parse_args()

    baseline = median_cpu([PYTHON, "-c", "import gent_core"], args.runs)
    # The floor of any command that finds plugin commands: reading the installed entry points.
    floor = median_cpu([PYTHON, "-c", ENTRY_POINTS], args.runs)
    rows: list[tuple[str, float, int]] = []
    for label, arguments in COMMANDS.items():
        rows.append((label, median_cpu([*GENT, *arguments], args.runs), modules_loaded(arguments)))
    uncached = [
        (label, median_cpu([*GENT, *arguments], args.runs, GENT_NO_CACHE="1"))
        for label, arguments in UNCACHED.items()
    ]
    peers: list[tuple[str, float]] = []
    llm = shutil.which("llm")
    if llm is not None:
        for label, arguments in PEERS.items():
            peers.append((label, median_cpu([llm, *arguments], args.runs)))

    print(f"\nprocess CPU time, median of {args.runs} runs, Python {sys.version.split()[0]}")
    print(f"{'command':28} {'CPU':>9} {'ratio':>7} {'target':>7} {'modules':>8}")
    print(f"{BASELINE:28} {baseline * 1000:7.1f}ms {1:6.2f}x")
    print(f"{'entry points (floor)':28} {floor * 1000:7.1f}ms {floor / baseline:6.2f}x")
    for label, seconds, modules in rows:
        ratio = seconds / baseline
        print(
            f"{label:28} {seconds * 1000:7.1f}ms {ratio:6.2f}x {TARGETS[label]:6.1f}x {modules:8d}"
        )
    for label, seconds in [*uncached, *peers]:
        print(f"{label:28} {seconds * 1000:7.1f}ms {seconds / baseline:6.2f}x")
    offenders = {label: import_offenders(arguments) for label, arguments in COMMANDS.items()}
    print("\nimports costing the most (own import time of each package's modules, -X importtime)")
    for label, found in offenders.items():
        listed = ", ".join(f"{name} {seconds * 1000:.0f}ms" for name, seconds in found)
        print(f"  {label}: {listed}")

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from recorder import Recorder

    record = Recorder(
        "bench_cli",
        "Command line: start-up cost",
        "Process CPU time (user + system) of each command as a whole process, median of "
        f"{args.runs} runs after a warm-up, against python -c 'import gent_core' measured "
        "the same way in the same run.",
    )
    missed = False
    for label, seconds, modules in rows:
        ratio = seconds / baseline
        record.measure(
            label,
            seconds,
            "s",
            versus=BASELINE,
            other=baseline,
            words=f"{ratio:.2f}x the CPU time",
            headline=label in ("gent --version", "gent plugins"),
            note=f"{modules} modules loaded",
        )
        met = ratio <= TARGETS[label]
        missed = missed or not met
        record.target(
            f"{label} within {TARGETS[label]:g}x of import gent_core",
            f"{ratio:.2f}x",
            "met" if met else "missed",
            reason="" if met else REASONS.get(label, "").format(floor=floor / baseline),
        )
    record.measure(
        "importlib.metadata entry points (the floor of plugin discovery)",
        floor,
        "s",
        versus=BASELINE,
        other=baseline,
        words=f"{floor / baseline:.2f}x the CPU time",
    )
    for label, seconds in uncached:
        record.measure(
            label,
            seconds,
            "s",
            versus=BASELINE,
            other=baseline,
            words=f"{seconds / baseline:.2f}x the CPU time",
            note="GENT_NO_CACHE=1: the first run after an install, upgrade or edit; no target",
        )
    for label, seconds in peers:
        record.measure(label, seconds, "s", versus=BASELINE, other=baseline, note="peer: llm")
    for label, found in offenders.items():
        listed = ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in found)
        record.note(f"Imports costing the most in {label}: {listed}.")
    if llm is None:
        record.note("llm is not installed here, so no peer figures.")
    record.save()
    if missed:
        print("a command-line start-up target was missed (see the verdicts above)")


if __name__ == "__main__":
    main()

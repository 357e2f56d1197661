"""Cost of plugin discovery: ``gent plugins`` and ``import gent_core`` with 0 and 100 plugins.

Builds two fresh virtual environments under ``benchmarks/.venv-*`` (reused on later runs):
one with gent-core only, one with gent-core plus 100 throwaway plugin distributions
(generated here), then times each command several times after a warm-up and prints medians
side by side with their ratio. Also checks that ``import gent_core`` imports no plugin module.

Run: ``python benchmarks/bench_plugins.py [--runs N] [--rebuild]``
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from gent_core.testing._distributions import write_plugin_project  # noqa: E402

PLUGIN_SOURCE = """
from gent_core import hookimpl


class Tool{index}:
    name = "tool_{index}"
    description = "Throwaway tool number {index}."


@hookimpl
def gent_register_tools():
    return [Tool{index}]
"""


def python_of(env: Path) -> Path:
    return env / "bin" / "python"


def build_env(env: Path, plugin_count: int, rebuild: bool) -> None:
    marker = env / f".built-{plugin_count}"
    if marker.exists() and not rebuild:
        # Reused environment: refresh gent-core so the current tree is what gets measured.
        subprocess.run(
            [
                str(python_of(env)),
                "-m",
                "pip",
                "install",
                "-q",
                "--no-deps",
                "--force-reinstall",
                str(REPO),
            ],
            check=True,
        )
        return
    shutil.rmtree(env, ignore_errors=True)
    venv.EnvBuilder(with_pip=True).create(env)
    requirements = [str(REPO)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for index in range(plugin_count):
            project = write_plugin_project(
                root,
                f"gent-bench-plugin-{index:03d}",
                PLUGIN_SOURCE.format(index=index),
                entry_point=f"bench{index:03d}",
            )
            requirements.append(str(project))
        print(f"installing gent-core + {plugin_count} plugins into {env} ...", flush=True)
        subprocess.run(
            [str(python_of(env)), "-m", "pip", "install", "-q", *requirements], check=True
        )
    marker.touch()


def median_seconds(command: list[str], runs: int) -> float:
    subprocess.run(command, check=True, capture_output=True)  # warm-up
    subprocess.run(command, check=True, capture_output=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()

    envs = {
        0: REPO / "benchmarks" / ".venv-plugins-0",
        100: REPO / "benchmarks" / ".venv-plugins-100",
    }
    for count, env in envs.items():
        build_env(env, count, args.rebuild)

    check = (
        "import sys, gent_core; "
        "tops = {m.split('.')[0] for m in sys.modules}; "
        "print(sorted(t for t in tops if t.startswith('gent_') and t != 'gent_core'))"
    )
    leaked = subprocess.run(
        [str(python_of(envs[100])), "-c", check], capture_output=True, text=True, check=True
    ).stdout.strip()
    listed = subprocess.run(
        [str(envs[100] / "bin" / "gent"), "plugins", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.count('"status": "loaded"')

    rows = []
    for label, make in [
        ("gent plugins", lambda env: [str(env / "bin" / "gent"), "plugins"]),
        (
            "python -c 'import gent_core'",
            lambda env: [str(python_of(env)), "-c", "import gent_core"],
        ),
        ("python -c 'pass' (interpreter floor)", lambda env: [str(python_of(env)), "-c", "pass"]),
    ]:
        base = median_seconds(make(envs[0]), args.runs)
        many = median_seconds(make(envs[100]), args.runs)
        rows.append((label, base, many, many / base))

    print(f"\nmedian of {args.runs} warm runs, Python {sys.version.split()[0]}")
    print(f"{'command':40} {'0 plugins':>11} {'100 plugins':>12} {'ratio':>7}")
    for label, base, many, ratio in rows:
        print(f"{label:40} {base * 1000:9.1f}ms {many * 1000:10.1f}ms {ratio:6.2f}x")
    print(f"\nplugins loaded by 'gent plugins' with 100 installed: {listed} (100 + core)")
    print(f"plugin modules imported by 'import gent_core': {leaked}")

    from recorder import Recorder

    record = Recorder(
        "bench_plugins",
        "Plugin discovery: 0 against 100 installed plugins",
        "Wall time of commands in two fresh virtual environments, one with gent-core only and "
        f"one with 100 throwaway plugin distributions more (median of {args.runs} warm runs).",
    )
    for label, base, many, ratio in rows:
        record.measure(
            f"{label}, 100 plugins installed",
            many,
            "s",
            versus="the same with no plugin installed",
            other=base,
            words=f"{ratio:.2f}x the time",
            headline=label == "gent plugins",
        )
    record.note(f"'gent plugins' with 100 installed loads {listed} plugins (100 + core).")
    record.note(f"plugin modules imported by 'import gent_core': {leaked}")
    record.save()


if __name__ == "__main__":
    main()

"""Run gent's fuzz targets with atheris for a given time each.

    python fuzz/run.py                      every target, 60 s each
    python fuzz/run.py xml_stream --time 600
    python fuzz/run.py --list               the target names
    python fuzz/run.py json_chain --replay crash-1234   run one input through a target
    python fuzz/run.py json_chain --minimize            shrink the seed corpus to what adds
                                                        coverage (seeds + what fuzzing found)

``python3 dev.py fuzz [TARGET] [--time SECONDS]`` installs atheris (``fuzz/requirements.txt``)
into the dev virtualenv first. Each target runs in a process of its own, starting from its
seed corpus (``fuzz/corpus/<target>/``, read only) and keeping what it finds in
``fuzz/.work/<target>/`` (not committed). A broken contract stops the target and leaves the
input as ``fuzz/.work/<target>/crash-*``. A summary (run time, executions, findings) is
printed and written to ``fuzz/.work/results.json``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SEEDS = HERE / "corpus"
WORK = HERE / ".work"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuzz.targets import TARGETS  # noqa: E402

INSTRUMENTED = (
    "gent_core",
    "gent_xml",
    "gent_markdown",
    "gent_json",
    "gent_yaml",
    "gent_natural",
    "gent_pythonic",
    "yaml",
)
"""Packages whose code atheris instruments for coverage feedback."""

KEEP = 24
"""How many fuzzed inputs ``--minimize`` adds to a target's seed corpus."""

_RUNS = re.compile(r"Done (\d+) runs in (\d+) second")
_EXECS = re.compile(r"stat::number_of_executed_units: (\d+)")


def _target(name: str) -> Any:
    return importlib.import_module(f"fuzz.targets.{name}")


def _seed_files(name: str) -> list[Path]:
    return sorted(path for path in (SEEDS / name).glob("*") if path.is_file())


def child_command(name: str) -> Path:
    """An executable that runs ``name``'s fuzzing child with the libFuzzer arguments it is
    given: libFuzzer starts it again for the inner processes of ``-merge=1``.
    """
    work = WORK / name
    work.mkdir(parents=True, exist_ok=True)
    script = work / "child.sh"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{__file__}" {name} --child "$@"\n')
    script.chmod(0o755)
    return script


def fuzz_in_this_process(name: str, libfuzzer_args: list[str]) -> None:
    """Run atheris on one target with ``libfuzzer_args`` (atheris exits the process)."""
    try:
        import atheris  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        sys.exit("atheris is not installed: pip install -r fuzz/requirements.txt")
    # Coverage comes from gent's packages and the YAML library; replaying the seeds inside
    # the block also loads (and instruments) what the parsers import lazily.
    with atheris.instrument_imports(include=[*INSTRUMENTED, "fuzz"]):
        module = _target(name)
        for seed in _seed_files(name):
            module.test_one_input(seed.read_bytes())
    logging.disable(logging.CRITICAL)  # readers log what they skip: noise at this rate
    work = WORK / name
    (work / "corpus").mkdir(parents=True, exist_ok=True)
    options = ["-timeout=20", "-rss_limit_mb=3072", "-max_len=8192", f"-artifact_prefix={work}/"]
    atheris.Setup([str(child_command(name)), *options, *libfuzzer_args], module.test_one_input)
    atheris.Fuzz()


def run_target(name: str, seconds: int) -> dict[str, Any]:
    """Fuzz ``name`` in a child process; return its run time, executions and findings."""
    work = WORK / name
    work.mkdir(parents=True, exist_ok=True)
    before = set(work.glob("crash-*")) | set(work.glob("timeout-*")) | set(work.glob("oom-*"))
    log = work / "fuzz.log"
    print(f"== {name}: fuzzing for {seconds} s (log {log.relative_to(ROOT)})", flush=True)
    started = time.monotonic()
    with log.open("w") as stream:
        code = subprocess.call(
            [
                str(child_command(name)),
                f"-max_total_time={seconds}",
                "-print_final_stats=1",
                str(work / "corpus"),
                str(SEEDS / name),
            ],
            cwd=ROOT,
            stdout=stream,
            stderr=subprocess.STDOUT,
        )
    elapsed = time.monotonic() - started
    text = log.read_text(errors="replace")
    execs = _EXECS.search(text) or _RUNS.search(text)
    found = sorted(
        set(work.glob("crash-*")) | set(work.glob("timeout-*")) | set(work.glob("oom-*"))
    )
    new = [str(path.relative_to(ROOT)) for path in found if path not in before]
    result = {
        "target": name,
        "seconds": round(elapsed),
        "executions": int(execs.group(1)) if execs else None,
        "exit_code": code,
        "findings": new,
        "corpus": len(list((work / "corpus").glob("*"))),
    }
    status = "ok" if code == 0 and not new else f"FOUND {len(new)} (exit {code})"
    print(
        f"   {result['seconds']} s, {result['executions']} executions, "
        f"{result['corpus']} corpus inputs: {status}",
        flush=True,
    )
    if code != 0:
        tail = [line for line in text.splitlines() if line.strip()][-25:]
        print("\n".join(f"   | {line}" for line in tail), flush=True)
    return result


def replay(name: str, path: Path) -> None:
    """Run one input through a target without atheris (a crash shows its traceback)."""
    _target(name).test_one_input(path.read_bytes())
    print(f"{path}: the contract holds")


def minimize(name: str, keep: int = KEEP) -> None:
    """Add to the seed corpus what fuzzing found that adds coverage: libFuzzer's merge of the
    seeds and the findings (the fewest inputs that keep all their coverage), of which ``keep``
    new ones, spread from the smallest to the largest, are kept (replacing the last choice),
    so the replay in the test suite stays fast.
    """
    merged = WORK / name / "merged"
    merged.mkdir(parents=True, exist_ok=True)
    for path in merged.iterdir():
        path.unlink()
    work = WORK / name / "corpus"
    work.mkdir(parents=True, exist_ok=True)
    subprocess.check_call(
        [str(child_command(name)), "-merge=1", str(merged), str(SEEDS / name), str(work)],
        cwd=ROOT,
    )
    seeds = SEEDS / name
    for path in seeds.glob("fuzzed-*"):  # replaced by this merge's choice
        path.unlink()
    present = {path.read_bytes() for path in _seed_files(name)}
    new = sorted(
        (path for path in merged.iterdir() if path.read_bytes() not in present),
        key=lambda path: (path.stat().st_size, path.name),
    )
    for path in new[:: max(1, len(new) // keep)][:keep]:  # small to large
        (seeds / f"fuzzed-{path.name[:16]}").write_bytes(path.read_bytes())
    print(f"{name}: {len(new)} inputs add coverage; kept {min(keep, len(new))}")


def main() -> None:
    """The command line (see the module documentation)."""
    if len(sys.argv) > 2 and sys.argv[2] == "--child":  # NAME --child LIBFUZZER_ARGS...
        fuzz_in_this_process(sys.argv[1], sys.argv[3:])
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "targets", nargs="*", help=f"targets to run (default: all): {', '.join(TARGETS)}"
    )
    parser.add_argument("--time", type=int, default=60, help="seconds per target (default 60)")
    parser.add_argument("--list", action="store_true", help="print the target names")
    parser.add_argument("--replay", type=Path, help="run this input through the (one) target")
    parser.add_argument(
        "--minimize", action="store_true", help="shrink the seed corpus (seeds + findings)"
    )
    args = parser.parse_args()
    if args.list:
        print("\n".join(TARGETS))
        return
    unknown = [name for name in args.targets if name not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s) {', '.join(unknown)}; targets: {', '.join(TARGETS)}")
    if args.minimize:
        for name in args.targets or TARGETS:
            minimize(name)
        return
    if args.replay:
        if len(args.targets) != 1:
            parser.error("--replay needs exactly one target")
        replay(args.targets[0], args.replay)
        return
    results = [run_target(name, args.time) for name in args.targets or TARGETS]
    summary = WORK / "results.json"
    previous = json.loads(summary.read_text()) if summary.exists() else {}
    previous.update({result["target"]: result for result in results})
    summary.write_text(json.dumps(previous, indent=2) + "\n")
    failed = [result["target"] for result in results if result["findings"] or result["exit_code"]]
    print(f"summary in {summary.relative_to(ROOT)}")
    if failed:
        sys.exit(f"contract broken in: {', '.join(failed)}")


if __name__ == "__main__":
    main()

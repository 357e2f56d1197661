#!/usr/bin/env python3
"""Developer tasks for the gent monorepo; needs only Python >= 3.10 and pip.

    python3 dev.py demo            run the example agent on the bundled local model
    python3 dev.py test            check, then every test on every Python found (what CI runs)
    python3 dev.py test --fast     the fast tests only, in parallel (no check, no slow tests,
                                   fewer hypothesis examples)
    python3 dev.py check           lint, type-check and build the docs strictly
    python3 dev.py bench           run every benchmark, write docs/benchmarks.md (--quick:
                                   without the model, servers and venvs)
    python3 dev.py fuzz [TARGET]   fuzz the parsers with atheris (--time SECONDS per target)
    python3 dev.py docs            build the documentation site into site/ (strict)
    python3 dev.py docs --serve    serve it at http://127.0.0.1:8000/ while you edit
    python3 dev.py setup           only create/refresh the development environment

The environment is a virtualenv in ``.venv`` (override with ``GENT_VENV``) with gent-core and
every package under ``plugins/`` installed editable. Each command installs only what it needs,
the first time: ``demo`` the packages of the demo agent (prebuilt wheels only, no compiler),
``docs`` the documentation tools, every other command everything (which builds
llama-cpp-python, the tests' second llama.cpp binding: no package on PyPI ships it prebuilt for
Linux with a llama.cpp that loads Gemma 3, so it is compiled).
An install is redone only when a ``pyproject.toml`` changes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("GENT_VENV", ROOT / ".venv"))
OTHER_PYTHONS = ("3.10", "3.12", "3.13")
DEMO_CONFIG = ROOT / "examples" / "calculator.yaml"
DEMO_TASK = "What is 17 * 23?"
DEMO_PLUGINS = (
    "gent-llamacpp",
    "gent-prompt",
    "gent-xml",
    "gent-json",
    "gent-tools-basic",
    "gent-history",
)
"""The plugins examples/calculator.yaml uses (its model, format, tool chain and tool), the
prompt library its model back end depends on, and the run history (gent logs, gent run
--continue) the quick start installs by default."""


def plugin_dirs() -> list[Path]:
    """Every installable plugin package under plugins/ (folders starting with "_" excluded)."""
    return sorted(
        path.parent
        for path in (ROOT / "plugins").glob("*/pyproject.toml")
        if not path.parent.name.startswith("_")
    )


def venv_bin(name: str) -> str:
    return str(VENV / ("Scripts" if os.name == "nt" else "bin") / name)


def run(*command: str, env: dict[str, str] | None = None, check: bool = True) -> int:
    print(f"$ {' '.join(command)}", flush=True)
    code = subprocess.call(command, cwd=ROOT, env=env)
    if check and code != 0:
        sys.exit(code)
    return code


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for path in [ROOT / "pyproject.toml", *[p / "pyproject.toml" for p in plugin_dirs()]]:
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


COMPILING_TEST_EXTRAS = ("gent-llamacpp", "gent-openai")
"""Plugins whose ``test`` extra builds llama-cpp-python from source (the second llama.cpp
binding, and ``llama_cpp.server`` for gent-openai): the other Pythons' environments install
them without it, and their tests that need it are marked ``slow`` or ``llama``."""


BUILD_REQUIREMENTS = ("hatchling>=1.21", "editables>=0.5")
"""What building the checkout's packages needs (their ``[build-system]``): installed into the
environment first, so that their editable installs build there, not each in an isolated
environment of its own (19 packages on a 2-core machine: 88 s isolated, 10 s without)."""

COMPILED_REQUIREMENTS = ("llama-cpp-python>=0.3",)
"""The one dependency built from source (no wheel provides it: :func:`build_env`), installed
before the rest with pip's isolated build, since it needs build tools the environment lacks.
Every other dependency comes as a wheel: an install without build isolation that meets an
unbuilt one stops with the module its build lacks."""


def pip_install(python: str, packages: list[str], *, compiled: bool) -> None:
    """``pip install`` ``packages`` (:func:`requirements`) into ``python``'s environment: the
    build requirements, then (``compiled``) :data:`COMPILED_REQUIREMENTS`, then ``packages``
    without build isolation."""
    run(python, "-m", "pip", "install", "-q", *BUILD_REQUIREMENTS)
    if compiled:
        run(python, "-m", "pip", "install", "-q", *COMPILED_REQUIREMENTS, env=build_env())
    run(python, "-m", "pip", "install", "-q", "--no-build-isolation", *packages, env=build_env())


def build_env() -> dict[str, str]:
    """The environment for ``pip install``: llama-cpp-python (no wheel on PyPI provides it
    with a llama.cpp that loads Gemma 3) compiled on every core, without its multimodal
    library (``CMAKE_ARGS=-DLLAVA_BUILD=OFF``: 127 compile steps instead of 178 for 0.3.36;
    nothing here uses images, and ``llama_cpp.server`` imports and serves text without it).
    A ``CMAKE_ARGS`` of your own is kept as it is. pip keeps the wheel it built in its cache,
    so only the first install on a machine compiles."""
    env = dict(os.environ)
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
    env.setdefault("CMAKE_ARGS", "-DLLAVA_BUILD=OFF")
    return env


FAST_MARKERS = "not slow and not llama"
"""The tests the other Pythons run: no servers, no real model, no fresh virtualenvs."""

MODEL_MARKER = "model"
"""The marker (pyproject.toml) of the slow tests that run a real model: ``test`` runs them one
at a time, the other slow tests on two workers."""

ALONE_MARKER = "alone"
"""The marker of the slow tests that send signals and wait for processes to end: one at a
time too (with a second worker beside them, a SIGTERM at ``gent chat``'s prompt once went
unanswered for 60 s)."""

ONCE_ONLY_TESTS = ("tests/architecture", "tests/docs")
"""Test folders the other Pythons leave out: they check the repository's own text (the source's
layers, imports and function lengths; the documentation pages' blocks against what the pages
print), which reads the same on every Python. The main Python runs them (``test``), and every
test of behaviour runs on every Python."""

FAST_PROFILE = "gent-fast"
"""The hypothesis profile (conftest.py: a quarter of the examples) of ``test --fast`` and
of the other Pythons' runs; the main run of ``test`` keeps hypothesis's default."""


def requirements(profile: str) -> list[str]:
    """What ``pip install`` gets for ``profile``: ``demo``, ``docs``, ``fast`` (every package
    and its test extra, without compiling anything: what tox's environments install) or
    ``full``."""
    if profile == "docs":
        return ["-e", ".[docs]"]
    if profile == "fast":
        fast = ["-e", ".[test]"]
        for plugin in plugin_dirs():
            extra = "" if plugin.name in COMPILING_TEST_EXTRAS else "[test]"
            fast += ["-e", f"{plugin.relative_to(ROOT)}{extra}"]
        return fast
    if profile == "demo":
        demo = ["-e", "."]
        for name in DEMO_PLUGINS:
            demo += ["-e", f"plugins/{name}"]
        return demo
    full = ["-e", ".[dev,docs]"]
    for plugin in plugin_dirs():
        full += ["-e", f"{plugin.relative_to(ROOT)}[test]"]
    return [*full, "tox>=4"]


def _installed_profiles(stamp: Path) -> dict[str, str]:
    """The profiles installed in the virtualenv, each with the fingerprint it was made for."""
    try:
        done = json.loads(stamp.read_text())
    except (OSError, ValueError):
        return {}
    return done if isinstance(done, dict) else {}


def setup(profile: str = "full") -> None:
    """Create the virtualenv and install ``profile``'s packages editable, unless they (or
    everything) are installed already for the current pyproject.toml files."""
    stamp = VENV / ".gent-dev-stamp"
    fingerprint = _fingerprint()
    done = _installed_profiles(stamp)
    if fingerprint in (done.get(profile), done.get("full")):
        return
    if not Path(venv_bin("python")).exists():
        print(f"creating virtualenv {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
        run(venv_bin("python"), "-m", "pip", "install", "-q", "--upgrade", "pip")
    pip_install(venv_bin("python"), requirements(profile), compiled=profile == "full")
    done = {name: value for name, value in done.items() if value == fingerprint}
    done[profile] = fingerprint
    stamp.write_text(json.dumps(done))


def lint() -> None:
    run(venv_bin("ruff"), "check", ".")
    run(venv_bin("ruff"), "format", "--check", ".")


def typecheck() -> None:
    packages = [str(p.relative_to(ROOT) / p.name.replace("-", "_")) for p in plugin_dirs()]
    run(venv_bin("mypy"), "gent_core", "tests", "tools", *packages)
    # Each plugin's tests separately: their conftest modules share a name.
    for plugin in plugin_dirs():
        tests = plugin / "tests"
        if tests.is_dir():
            run(venv_bin("mypy"), str(tests.relative_to(ROOT)))


def docs(serve: bool = False) -> None:
    """Build the site strictly: a broken link, a page outside the nav or a bad API reference
    fails (about 10 s of CPU). ``serve``: serve it on 127.0.0.1:8000 instead, rebuilt on
    every change (gent's error messages link there with GENT_DOCS_URL=http://127.0.0.1:8000/)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if serve:
        run(venv_bin("mkdocs"), "serve", "--dev-addr", "127.0.0.1:8000", env=env)
        return
    run(venv_bin("mkdocs"), "build", "--strict", "--quiet", "--site-dir", "site", env=env)


def find_other_pythons() -> dict[str, Path]:
    """Other Python versions that really run: on PATH, or installed by pyenv."""
    found: dict[str, Path] = {}
    for version in OTHER_PYTHONS:
        candidates = [shutil.which(f"python{version}")]
        pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
        candidates += [
            str(p) for p in sorted(pyenv_root.glob(f"versions/{version}.*/bin/python{version}"))
        ]
        for candidate in filter(None, candidates):
            probe = subprocess.run(
                [candidate, "-c", "import sys; print(sys.executable)"],
                capture_output=True,
                text=True,
            )
            if probe.returncode == 0:
                found[version] = Path(probe.stdout.strip())
                break
    return found


def pytest_targets() -> list[str]:
    return ["tests", *[str(p.relative_to(ROOT) / "tests") for p in plugin_dirs()]]


def check() -> None:
    """Lint, type-check and build the docs strictly."""
    lint()
    typecheck()
    docs()


def test(fast: bool, extra: list[str]) -> None:
    """``fast``: the fast tests in parallel (pytest-xdist, the ``gent-fast`` hypothesis
    profile), nothing else. Otherwise (CI): the checks, the fast tests on the other Pythons
    found (tox, all at once on two CPUs: :func:`other_pythons_under_load`), then every test
    with hypothesis's default profile (the fast ones on two workers, the slow ones without a
    model on two workers, those with a real model one at a time: :data:`MODEL_MARKER`).

    The tests write Python's bytecode caches (``__pycache__``, ignored by git) even where
    ``PYTHONDONTWRITEBYTECODE`` is set: without them every test process and every ``gent``
    it starts compiles the checkout again (the quick loop: 387 CPU-s without, 316 with)."""
    setup()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if fast:
        run(
            venv_bin("python"),
            "-m",
            "pytest",
            *pytest_targets(),
            "-m",
            "not slow",
            "-n",
            "auto",
            f"--hypothesis-profile={FAST_PROFILE}",
            "-p",
            "no:cacheprovider",
            *extra,
        )
        return
    check()
    interpreters = find_other_pythons()
    if interpreters:
        other_pythons_under_load(interpreters)
    else:
        print(
            f"note: none of Python {', '.join(OTHER_PYTHONS)} found; "
            f"testing {sys.version.split()[0]} only"
        )
    # Every test: the fast ones on two workers; the slow ones that run no model (fresh
    # virtualenvs, MCP servers, gent processes: mostly one process at work at a time) on two
    # workers too, a file's tests on one worker (its module fixtures, a virtualenv for one,
    # are made once); then those that run a real model one at a time, as before: a model
    # uses every core, and on a loaded machine a model server's answer can outlast a
    # request's timeout when another worker runs beside it.
    pytest = [venv_bin("python"), "-m", "pytest", *pytest_targets(), "-p", "no:cacheprovider"]
    run(*pytest, "-m", "not slow", "-n", "2", *extra)
    one_at_a_time = f"({MODEL_MARKER} or {ALONE_MARKER})"
    run(*pytest, "-m", f"slow and not {one_at_a_time}", "-n", "2", "--dist", "loadfile", *extra)
    run(*pytest, "-m", f"slow and {one_at_a_time}", *extra)


LOAD_CPUS = 2
"""How many CPUs the other Pythons' fast suites share while all of them run at once."""


def load_cpus() -> set[int] | None:
    """The first :data:`LOAD_CPUS` CPUs this process may use, or ``None`` where a process's
    CPUs cannot be chosen (not Linux)."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    return set(sorted(os.sched_getaffinity(0))[:LOAD_CPUS])


def other_pythons_under_load(interpreters: dict[str, Path]) -> None:
    """The fast suite on the other installed Pythons (tox.ini), every one at once on
    :data:`LOAD_CPUS` CPUs: more test processes than cores, so the suite is shown to pass on
    a loaded machine (on a 2-core machine this costs nothing: the work is the same)."""
    envs = ",".join(f"py{version.replace('.', '')}" for version in interpreters)
    path = os.pathsep.join([*(str(p.parent) for p in interpreters.values()), os.environ["PATH"]])
    cpus = load_cpus()
    where = f"CPUs {sorted(cpus)}" if cpus is not None else "every CPU (cannot pin here)"
    print(f"the fast suite of Python {', '.join(interpreters)} at once on {where}", flush=True)
    command = [venv_bin("tox"), "run-parallel", "-p", str(len(interpreters)), "-e", envs]
    print(f"$ {' '.join(command)}", flush=True)
    code = subprocess.call(
        command,
        cwd=ROOT,
        env={**os.environ, "PATH": path},
        preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus is not None else None,
    )
    if code != 0:
        sys.exit(code)


def tox_env(extra: list[str]) -> None:
    """What each of tox's environments runs (tox.ini calls it, so the list of packages and
    test folders lives here only): install the ``fast`` profile into the running Python, then
    its fast tests, but for :data:`ONCE_ONLY_TESTS`."""
    pip_install(sys.executable, requirements("fast"), compiled=False)
    run(
        sys.executable,
        "-m",
        "pytest",
        *pytest_targets(),
        *(f"--ignore={folder}" for folder in ONCE_ONLY_TESTS),
        "-m",
        FAST_MARKERS,
        f"--hypothesis-profile={FAST_PROFILE}",
        "-p",
        "no:cacheprovider",
        *extra,
    )


def demo(task: str) -> None:
    setup("demo")
    run(venv_bin("gent"), "run", str(DEMO_CONFIG.relative_to(ROOT)), task)


SLOW_BENCHMARKS = (
    "bench_eval_concurrency",
    "bench_eval_peers",
    "bench_llamacpp",
    "bench_llamacpp_threads",
    "bench_plugins",
)
"""Benchmarks that need the real model, model servers or fresh virtualenvs (skipped by --quick)."""


def bench(quick: bool) -> None:
    """Run the benchmarks (each writes benchmarks/results/<name>.json), then write
    docs/benchmarks.md from every results file."""
    setup()
    run(venv_bin("python"), "-m", "pip", "install", "-q", "-r", "benchmarks/requirements.txt")
    ran, failed = [], []
    for script in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        if quick and script.stem in SLOW_BENCHMARKS:
            print(f"--quick: skipping {script.name}", flush=True)
            continue
        results = ROOT / "benchmarks" / "results" / f"{script.stem}.json"
        before = results.stat().st_mtime if results.exists() else None
        code = run(venv_bin("python"), str(script.relative_to(ROOT)), check=False)
        if results.exists() and results.stat().st_mtime != before:
            ran.append(script.stem)
        if code != 0:
            failed.append(script.name)
    report = [venv_bin("python"), "benchmarks/report.py", "--ran", ",".join(ran)]
    run(*report, *(["--quick"] if quick else []))
    if failed:
        sys.exit(f"benchmarks that failed or missed a target: {', '.join(failed)}")


def fuzz(targets: list[str], seconds: int) -> None:
    """Install atheris into the virtualenv if needed, then run fuzz/run.py."""
    setup()
    probe = subprocess.run([venv_bin("python"), "-c", "import atheris"], capture_output=True)
    if probe.returncode != 0:
        run(venv_bin("python"), "-m", "pip", "install", "-q", "-r", "fuzz/requirements.txt")
    run(venv_bin("python"), "fuzz/run.py", *targets, "--time", str(seconds))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("setup", help="create or refresh the development environment")
    test_parser = sub.add_parser("test", help="lint, type-check and run the tests")
    test_parser.add_argument("--fast", action="store_true", help="skip slow tests")
    test_parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    demo_parser = sub.add_parser("demo", help="run the example agent")
    demo_parser.add_argument("task", nargs="?", default=DEMO_TASK)
    bench_parser = sub.add_parser("bench", help="run the benchmarks, write docs/benchmarks.md")
    bench_parser.add_argument(
        "--quick", action="store_true", help="skip the benchmarks that need the model or servers"
    )
    fuzz_parser = sub.add_parser("fuzz", help="fuzz the parsers (atheris)")
    fuzz_parser.add_argument("targets", nargs="*", help="fuzz targets (default: all)")
    fuzz_parser.add_argument("--time", type=int, default=60, help="seconds per target")
    sub.add_parser("check", help="lint, type-check and build the docs (strict)")
    tox_parser = sub.add_parser("tox-env", help="(tox.ini) install and run one Python's tests")
    tox_parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    sub.add_parser("lint", help="ruff check and format check")
    sub.add_parser("type", help="mypy --strict over every package")
    docs_parser = sub.add_parser("docs", help="build the documentation site (mkdocs --strict)")
    docs_parser.add_argument(
        "--serve", action="store_true", help="serve it at http://127.0.0.1:8000/ instead"
    )
    args = parser.parse_args()
    if args.command == "setup":
        setup()
    elif args.command == "test":
        test(args.fast, args.pytest_args)
    elif args.command == "demo":
        demo(args.task)
    elif args.command == "bench":
        bench(args.quick)
    elif args.command == "fuzz":
        fuzz(args.targets, args.time)
    elif args.command == "check":
        setup()
        check()
    elif args.command == "tox-env":
        tox_env(args.pytest_args)
    elif args.command == "lint":
        setup()
        lint()
    elif args.command == "type":
        setup()
        typecheck()
    elif args.command == "docs":
        setup("docs")
        docs(serve=args.serve)


if __name__ == "__main__":
    main()

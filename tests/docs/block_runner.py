"""Run a page's code blocks in order, in one namespace, in a fresh process (the doc-block
test's runner).

``python block_runner.py PAGE RESULTS_FILE [EXAMPLES]`` runs one page: a JSON list of
``{"code", "line"}`` on standard input; EXAMPLES, if given, is the hypothesis profile's
number of examples for the page's properties (the test session's, when it chose one).
Writes a JSON list of ``{"stdout", "error"}``, one per block that ran, to RESULTS_FILE; stops
at the first block that raises. Each block is compiled with its page's
name and line numbers, so a traceback points at the page; top-level ``await`` is allowed.
As with ``python -c``, modules in the working directory are importable.

``python block_runner.py --serve`` runs many pages, each in a fresh process forked from this
one (where ``os.fork`` exists): it first imports the modules named on the first line of its
standard input (a JSON list: gent, the plugins, what the pages import) and the installed
plugins' entry-point modules, once; then, for each JSON request line (``page``, ``blocks``,
``cwd``, ``env``, ``examples``, ``timeout``) it forks a child that takes the page's working
directory and environment, runs the page as above, and ends; and answers one JSON line
(``results``, ``stderr``, ``status``). A page changes nothing the next one sees: its imports,
namespace, working directory, environment and hypothesis profile die with its process.
Starting Python and importing gent is most of a small page's cost; this pays it once.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import inspect
import io
import json
import os
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import IO, Any


def run_blocks(page: str, blocks: list[dict[str, Any]]) -> list[dict[str, str | None]]:
    """Run the blocks; return what each printed and its traceback, if any."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    loop = asyncio.new_event_loop()
    results: list[dict[str, str | None]] = []
    try:
        for block in blocks:
            # Leading newlines make the compiled line numbers the page's line numbers.
            source = "\n" * (block["line"] - 1) + block["code"]
            buffer = io.StringIO()
            error = None
            try:
                code = compile(source, page, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
                with contextlib.redirect_stdout(buffer):
                    outcome = eval(code, namespace)
                    if inspect.iscoroutine(outcome):
                        loop.run_until_complete(outcome)
            except BaseException:  # noqa: BLE001 - report anything, SystemExit included
                error = traceback.format_exc()
            results.append({"stdout": buffer.getvalue(), "error": error})
            if error is not None:
                break
    finally:
        loop.close()
    return results


def _load_profile(examples: int | None) -> None:
    """Give the page's hypothesis properties the test session's number of examples."""
    if examples is None:
        return
    from hypothesis import settings

    settings.register_profile("doc-blocks", max_examples=examples)
    settings.load_profile("doc-blocks")


def main() -> None:
    # Like ``python -c``: the working directory, not this file's folder, is importable.
    sys.path[0] = ""
    page, results_file = sys.argv[1], Path(sys.argv[2])
    _load_profile(int(sys.argv[3]) if len(sys.argv) > 3 else None)
    blocks = json.loads(sys.stdin.read())
    results_file.write_text(json.dumps(run_blocks(page, blocks)), encoding="utf-8")


# --------------------------------------------------------------------------- the page server


def _preload(names: list[str]) -> None:
    """Import what the pages will import (and, for gent's own packages, every name they
    export, which they load lazily), then find and register the installed plugins as plugin
    discovery does (importing their components), so that no page's process pays for it.
    Nothing is kept but the imported modules: the process-wide plugin manager is not built.
    A module that does not import is left to the page, which reports it."""
    import importlib

    for name in names:
        try:
            module = importlib.import_module(name)
            if name.startswith("gent_"):
                for export in getattr(module, "__all__", ()):
                    getattr(module, export)
        except Exception:  # noqa: BLE001 - the page that imports it says what is wrong
            continue
    try:
        from gent_core._plugins.manager import build_plugin_manager
        from gent_core._plugins.registry import Registry

        Registry.from_plugin_manager(build_plugin_manager())
    except Exception:  # noqa: BLE001 - a page that finds plugins reports what is wrong
        pass


def _run_child(request: dict[str, Any], results_file: str, stderr_file: str) -> None:
    """In the forked child: take the page's standard streams, working directory, environment
    and hypothesis profile, run its blocks, write the results, and end the process."""
    status = 1
    try:
        os.setpgid(0, 0)  # a timeout ends the page's own subprocesses too
        quiet = os.open(os.devnull, os.O_RDWR)
        errors = os.open(stderr_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(quiet, 0)
        os.dup2(quiet, 1)
        os.dup2(errors, 2)
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - not the server's requests
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.path.insert(0, "")  # as in a fresh runner: the working directory is importable
        sys.argv = [__file__, request["page"], results_file]
        _load_profile(request["examples"])
        results = run_blocks(request["page"], request["blocks"])
        Path(results_file).write_text(json.dumps(results), encoding="utf-8")
        status = 0
    except BaseException:  # noqa: BLE001 - the runner's own failure, reported as a crash
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a page may have closed it
                stream.flush()
        os._exit(status)


def _wait(pid: int, timeout: float) -> tuple[int, bool]:
    """The child's exit status (negative: the signal that ended it), and whether it was
    killed (with its process group) because it outlasted ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), False
        if time.monotonic() > deadline:
            with contextlib.suppress(OSError):  # gone already
                os.killpg(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):  # not yet its own group's leader
                os.kill(pid, signal.SIGKILL)
            return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), True
        time.sleep(0.02)


def _serve_one(request: dict[str, Any], scratch: str) -> dict[str, Any]:
    results_file = os.path.join(scratch, "results.json")
    stderr_file = os.path.join(scratch, "stderr.txt")
    for path in (results_file, stderr_file):
        if os.path.exists(path):
            os.unlink(path)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _run_child(request, results_file, stderr_file)
    status, killed = _wait(pid, float(request["timeout"]))
    results = None
    if os.path.exists(results_file):
        results = json.loads(Path(results_file).read_text(encoding="utf-8"))
    stderr = ""
    if os.path.exists(stderr_file):
        stderr = Path(stderr_file).read_text(encoding="utf-8", errors="replace")
    if killed:
        stderr += f"\n(killed: the page took over {request['timeout']} s)"
    return {"results": results, "stderr": stderr, "status": status}


def serve(requests: IO[str], answers: IO[str]) -> None:
    """Preload, then answer each page request with the outcome of its forked process."""
    del sys.path[0]  # this file's folder: the pages' imports never come from it
    _preload(json.loads(requests.readline()))
    with tempfile.TemporaryDirectory(prefix="gent-doc-blocks-") as scratch:
        for line in requests:
            answers.write(json.dumps(_serve_one(json.loads(line), scratch)) + "\n")
            answers.flush()


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        # The answers go to a copy of standard output; the server's own descriptor 1 (and so
        # anything a preloaded module prints) goes to its standard error.
        answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
        os.dup2(2, 1)
        serve(sys.stdin, answers)
        sys.stderr.flush()
        os._exit(0)  # a clean end, without tearing down hundreds of modules one by one
    else:
        main()

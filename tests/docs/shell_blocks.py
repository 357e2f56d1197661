"""Run the shell blocks of a Markdown page in one bash session, and check what they print (the
shell half of the doc-block test; the conventions are in ``docs/contributing-docs.md``).

* A fenced block whose language is ``bash``, ``sh`` or ``shell`` is **run** as written; a
  ``console`` block shows commands (lines starting ``$ ``, continued by a trailing ``\\``) each
  followed by its output: each command is run and its output (standard output and error) must
  be the lines shown, where a line ``...`` stands for any lines, none included.
* The blocks of a page run **in order, in one bash session** (``set -e -o pipefail``):
  variables, ``cd``, ``source`` and background jobs carry over to the later blocks, as in the
  reader's terminal. The first command that fails ends the session.
* The session runs from the page's view of the checkout: a temporary folder that links every
  top-level file and folder of the checkout, with ``.venv`` linked to the environment the tests
  run in, so ``python3 dev.py demo``, ``examples/...`` and ``source .venv/bin/activate`` work
  and nothing a block writes there lands in the checkout. :func:`session_environment` says
  what the session's environment holds.
* The session has its own process group; when it ends (or its time is up) the whole group is
  stopped, so a server a block starts with ``&`` is never left behind.
* Marks: none, the block runs with the fast tests; ``{test="slow"}``, it runs the bundled
  model, with the slow tests; ``{test="openai"}``, it needs an OpenAI-compatible server: it runs
  with the slow tests, with ``OPENAI_BASE_URL`` and ``OPENAI_MODEL`` naming a real local one;
  ``{test="ci"}``, it is the command CI runs (``.ci/run``), which cannot run inside the tests
  it runs: a test checks that ``.ci/run`` runs exactly it.
"""

from __future__ import annotations

import difflib
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.docs.doc_blocks import Block, Page

__all__ = [
    "ELLIPSIS",
    "SESSION_TIMEOUT",
    "Unit",
    "UnitResult",
    "check_shell_page",
    "checkout_view",
    "output_matches",
    "run_session",
    "session_environment",
    "shell_units",
]

ELLIPSIS = "..."
"""A line of a ``console`` block's output that stands for any lines (none included)."""

SESSION_TIMEOUT = {False: 300.0, True: 1800.0}
"""Seconds a page's session may take, in the fast run and in the slow run (a loaded machine)."""

STOP_DEADLINE = 20.0
"""Seconds the session's processes have to stop after SIGTERM before they are killed."""

_OUTPUT_SHOWN = 3000
"""Characters of a failing command's output a problem shows (its end)."""


@dataclass(frozen=True)
class Unit:
    """One thing the session runs: a shell block, or one command of a ``console`` block with
    the output lines the page shows for it (``None`` when nothing is shown to check)."""

    code: str
    line: int  # the page's line of the code's first line
    expected: tuple[str, ...] | None = None


@dataclass(frozen=True)
class UnitResult:
    """What a unit printed (standard output and error together), and its exit status
    (``None`` when it did not finish: its time was up)."""

    output: str
    status: int | None


def _console_units(block: Block) -> list[Unit]:
    """The commands of a ``console`` block, each with the output lines that follow it."""
    units: list[Unit] = []
    lines = block.code.splitlines()
    index = 0
    while index < len(lines):
        if not lines[index].startswith("$ "):
            index += 1  # output before any command: reported by shell_problems
            continue
        start = index
        command = [lines[index][2:]]
        while command[-1].endswith("\\") and index + 1 < len(lines):
            index += 1
            command.append(lines[index])
        index += 1
        output: list[str] = []
        while index < len(lines) and not lines[index].startswith("$ "):
            output.append(lines[index])
            index += 1
        units.append(Unit("\n".join(command) + "\n", block.line + start, tuple(output)))
    return units


def shell_problems(page: Page) -> list[str]:
    """What is wrong with the page's shell blocks as written (a ``console`` block that shows
    output before its first command, or no command at all)."""
    problems = []
    for block in page.blocks:
        if block.language != "console" or block.attributes.get("test") == "ci":
            continue
        first = next((line for line in block.code.splitlines() if line.strip()), "")
        if not first.startswith("$ "):
            problems.append(
                f"{page.path}:{block.line}: a console block starts with a command line "
                "('$ command'), then shows its output"
            )
    return problems


def shell_units(page: Page, *, slow: bool) -> list[Unit]:
    """What the session of ``page`` runs, in order: its shell blocks that run (with ``slow``,
    the ``slow`` and ``openai`` ones too), a ``console`` block's commands one by one."""
    units: list[Unit] = []
    for block in page.blocks:
        if not (block.is_shell and block.runs and (slow or not block.slow)):
            continue
        if block.language == "console":
            units.extend(_console_units(block))
        else:
            units.append(Unit(block.code, block.line))
    return units


def checkout_view(root: Path, target: Path, venv: Path) -> Path:
    """Make ``target`` a view of the checkout ``root``: a link to each of its top-level files
    and folders, and ``.venv`` linked to ``venv``. Returns ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for entry in root.iterdir():
        if entry.name != ".venv":
            (target / entry.name).symlink_to(entry)
    (target / ".venv").symlink_to(venv)
    return target


def session_environment(
    scratch: Path, extra: Mapping[str, str] | None = None, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of a page's session: ``base`` (the test's) without gent's and OpenAI's
    variables, the tests' environment first on ``PATH`` and as ``GENT_VENV`` (dev.py's), gent's
    data and caches (``GENT_HOME``, ``XDG_DATA_HOME``, ``XDG_CACHE_HOME``) in ``scratch``, and
    pip kept off the network (``PIP_NO_INDEX``: an install that is not already satisfied fails
    instead of changing the environment); then ``extra``."""
    base = os.environ if base is None else base
    environment = {
        key: value
        for key, value in base.items()
        if not key.startswith(("GENT_", "OPENAI_")) and key != "PORT"
    }
    bin_dir = Path(sys.executable).parent
    environment["PATH"] = os.pathsep.join([str(bin_dir), base.get("PATH", os.defpath)])
    environment["GENT_VENV"] = sys.prefix
    for name, folder in (
        ("GENT_HOME", "gent-home"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
    ):
        (scratch / folder).mkdir(parents=True, exist_ok=True)
        environment[name] = str(scratch / folder)
    environment["PIP_NO_INDEX"] = "1"
    environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    environment.update(extra or {})
    return environment


def _script(units: list[Unit], scratch: Path) -> str:
    """The session's bash script: each unit in a group whose output goes to its own file,
    after the unit's number is written to the ``state`` file (so a failure is placed)."""
    state = shlex.quote(str(scratch / "state"))
    lines = ["set -e -o pipefail"]
    for number, unit in enumerate(units):
        output = shlex.quote(str(scratch / f"output-{number}"))
        code = unit.code.rstrip("\n")
        # ":" first: a group may not be empty (a block of comments only)
        lines += [f"echo {number} > {state}", "{ :", code, f"}} > {output} 2>&1 < /dev/null"]
    lines.append(f"echo done > {state}")
    return "\n".join(lines) + "\n"


def _stop_group(group: int) -> None:
    """SIGTERM every process of the session's group, then SIGKILL those still there."""
    for sent in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(group, sent)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + STOP_DEADLINE
        while time.monotonic() < deadline:
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)


def run_session(
    units: list[Unit], cwd: Path, environment: Mapping[str, str], scratch: Path, timeout: float
) -> tuple[list[UnitResult], str]:
    """Run ``units`` in one bash session in ``cwd``, in a process group of its own that is
    stopped whatever happens. Returns a result for each unit that started (all but the last
    exited 0) and what bash itself wrote (a syntax error, for one)."""
    script = scratch / "session.sh"
    script.write_text(_script(units, scratch), encoding="utf-8")
    log = scratch / "session.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["bash", str(script)],
            cwd=cwd,
            env=dict(environment),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            status: int | None = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            status = None
        finally:
            _stop_group(process.pid)
            process.wait()
    state_file = scratch / "state"
    state = state_file.read_text(encoding="utf-8").strip() if state_file.exists() else "-1"
    started = len(units) if state == "done" else int(state) + 1
    results = []
    for number in range(started):
        output_file = scratch / f"output-{number}"
        output = output_file.read_text("utf-8", errors="replace") if output_file.exists() else ""
        last = number == started - 1 and state != "done"
        results.append(UnitResult(output, status if last else 0))
    return results, log.read_text("utf-8", errors="replace")


def _normalised(lines: list[str] | tuple[str, ...]) -> list[str]:
    kept = [line.rstrip() for line in lines]
    while kept and not kept[-1]:
        kept.pop()
    while kept and not kept[0]:
        kept.pop(0)
    return kept


def output_matches(expected: tuple[str, ...], printed: str) -> bool:
    """Whether ``printed`` is the lines ``expected`` shows (trailing spaces and blank lines at
    either end aside), a line ``...`` standing for any lines, none included."""
    pattern, lines = _normalised(expected), _normalised(printed.splitlines())
    # matched[j]: whether the pattern read so far matches lines[:j]
    matched = [True] + [False] * len(lines)
    for element in pattern:
        if element == ELLIPSIS:
            for j in range(1, len(lines) + 1):
                matched[j] = matched[j] or matched[j - 1]
        else:
            matched = [False] + [
                matched[j - 1] and lines[j - 1] == element for j in range(1, len(lines) + 1)
            ]
    return matched[-1]


def _failure(page: Page, unit: Unit, result: UnitResult, log: str, timeout: float) -> str:
    said = result.output + (f"\n(bash: {log.strip()})" if log.strip() else "")
    what = (
        f"did not finish in {timeout:g} s"
        if result.status is None
        else f"failed (exit status {result.status})"
    )
    return f"{page.path}:{unit.line}: the command {what}; its output:\n{said[-_OUTPUT_SHOWN:]}"


def check_shell_page(
    page: Page, cwd: Path, environment: Mapping[str, str], scratch: Path, *, slow: bool
) -> list[str]:
    """Run the page's shell session and return every problem: blocks written wrong, a command
    that failed (the page's line, its status and the end of its output), an output that is not
    what the page shows, a session that ended early."""
    problems = [*page.problems, *shell_problems(page)]
    units = shell_units(page, slow=slow)
    if problems or not units:
        return problems
    timeout = SESSION_TIMEOUT[slow]
    results, log = run_session(units, cwd, environment, scratch, timeout)
    for unit, result in zip(units, results, strict=False):
        if result.status != 0:
            return [*problems, _failure(page, unit, result, log, timeout)]
        if unit.expected is not None and not output_matches(unit.expected, result.output):
            diff = "\n".join(
                difflib.unified_diff(
                    _normalised(unit.expected),
                    _normalised(result.output.splitlines()),
                    "shown on the page",
                    "printed",
                    lineterm="",
                )
            )
            problems.append(
                f"{page.path}:{unit.line}: the output differs from what the command prints "
                f"('...' stands for any lines):\n{diff}"
            )
    if len(results) < len(units):
        problems.append(
            f"{page.path}:{units[len(results)].line}: the session ended before this command"
            + (f" (bash: {log.strip()[-_OUTPUT_SHOWN:]})" if log.strip() else "")
        )
    return problems

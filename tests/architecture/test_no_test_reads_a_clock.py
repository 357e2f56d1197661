"""No test reads a clock to assert anything (docs/architecture.md, "Tests count, they do not
time"): the suite runs on loaded machines, where a duration measures the machine.

Linearity and bounds are asserted by counting (``gent_core.testing.count_steps`` and
``assert_linear``, calls, bytes, tokens). Timing lives in ``benchmarks/``. The check reads the
source of every test file (``tests/``, each plugin's ``tests/``, and the testing kit
``gent_core/testing/``):

* a CPU clock (``time.process_time``, ``time.thread_time``, ``time.clock_gettime``, their
  ``_ns`` forms, ``resource.getrusage``, ``os.times``) is never read: it has no use in a test
  but measuring;
* a wall clock (``time.time``, ``time.perf_counter``, ``time.monotonic``, their ``_ns`` forms)
  is read only as a deadline, the hang guard of a wait: ``now() + seconds``, ``now() <
  deadline``, or a moment in the past, ``now() - <number>`` (a file's date a month ago). A
  reading kept (``started = now()``), subtracted from another (``now() - started``) or passed
  on measures a duration, and fails the check.

Names are followed through ``import time as t`` and ``from time import perf_counter``, and
into code kept in strings (a script a test runs in a child process with ``python -c``).
A file, or a string, that never writes the name of a clock module (``time``, ``resource``,
``os``) as a word imports none, and is not parsed: two thirds of the test files.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path

from tests.architecture import sources

ROOT = Path(__file__).resolve().parents[2]

CPU_CLOCKS = frozenset(
    {
        "time.process_time",
        "time.process_time_ns",
        "time.thread_time",
        "time.thread_time_ns",
        "time.clock_gettime",
        "time.clock_gettime_ns",
        "resource.getrusage",
        "os.times",
    }
)
WALL_CLOCKS = frozenset(
    {
        "time.time",
        "time.time_ns",
        "time.perf_counter",
        "time.perf_counter_ns",
        "time.monotonic",
        "time.monotonic_ns",
    }
)
CLOCK_MODULES = frozenset(name.partition(".")[0] for name in CPU_CLOCKS | WALL_CLOCKS)
CLOCK_MODULE_WORD = re.compile(r"\b(?:" + "|".join(sorted(CLOCK_MODULES)) + r")\b")
"""A clock module's name as a word: code without one imports no clock."""


def suite_files() -> list[Path]:
    """Every Python file of the test suites and of the testing kit."""
    roots = [ROOT / "tests", ROOT / "gent_core" / "testing"]
    roots += sorted(path for path in (ROOT / "plugins").glob("*/tests") if path.is_dir())
    return sorted(path for root in roots for path in root.rglob("*.py"))


def _names(nodes: Iterable[ast.AST]) -> tuple[dict[str, str], dict[str, str]]:
    """The local names of the clock modules (``t`` for ``import time as t``) and of clock
    functions imported by name (``pc`` for ``from time import perf_counter as pc``)."""
    modules: dict[str, str] = {}
    functions: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in CLOCK_MODULES:
                    modules[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module in CLOCK_MODULES:
            for alias in node.names:
                qualified = f"{node.module}.{alias.name}"
                if qualified in CPU_CLOCKS | WALL_CLOCKS:
                    functions[alias.asname or alias.name] = qualified
    return modules, functions


def _clock(node: ast.AST, modules: dict[str, str], functions: dict[str, str]) -> str | None:
    """The clock ``node`` names (``time.monotonic``), or ``None``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        qualified = f"{modules.get(node.value.id)}.{node.attr}"
        return qualified if qualified in CPU_CLOCKS | WALL_CLOCKS else None
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        return functions.get(node.id)
    return None


def _constant(node: ast.AST) -> bool:
    """Whether ``node`` is a number written out (``31 * 86400``): no name, call or reading."""
    return all(
        isinstance(part, ast.Constant | ast.BinOp | ast.UnaryOp | ast.operator | ast.unaryop)
        for part in ast.walk(node)
    )


def _as_deadline(call: ast.AST, parent: ast.AST | None) -> bool:
    """Whether the wall-clock reading ``call`` is used as a deadline (or a moment in the
    past), not kept or subtracted from another reading."""
    if isinstance(parent, ast.Compare):
        return True
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
        return True
    return (
        isinstance(parent, ast.BinOp)
        and isinstance(parent.op, ast.Sub)
        and parent.left is call
        and _constant(parent.right)
    )


def _code_in_strings(nodes: Iterable[ast.AST], where: str) -> list[str]:
    """The clock reads of the strings among ``nodes`` that are Python code (a child process's
    script), each as ``where:line`` of the string."""
    found = []
    for node in nodes:
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        # No clock can be named without an import of a clock module (by its name).
        if "import" not in node.value or not CLOCK_MODULE_WORD.search(node.value):
            continue
        inside = f"{where}:{node.lineno} (in a string)"
        try:
            found += clock_reads(textwrap.dedent(node.value), inside)
        except (SyntaxError, ValueError):  # prose, not code
            continue
    return found


def clock_reads(source: str, where: str, *, strings: bool = True) -> list[str]:
    """Every clock read of ``source`` that can measure time, as ``where:line clock (why)``;
    with ``strings``, also those of the code it keeps in strings."""
    tree = ast.parse(source)
    return _reads(tree, tuple(ast.walk(tree)), where, strings=strings)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _reads(tree: ast.AST, nodes: Sequence[ast.AST], where: str, *, strings: bool) -> list[str]:
    """:func:`clock_reads` of a parsed source: ``nodes`` are its tree's, in walk order."""
    modules, functions = _names(nodes)
    parents: dict[ast.AST, ast.AST] | None = None  # made when a wall clock is read
    found = []
    for node in nodes if modules or functions else ():
        clock = _clock(node, modules, functions)
        if clock is None or not isinstance(node, ast.expr):
            continue
        if clock in CPU_CLOCKS:
            found.append(f"{where}:{node.lineno} {clock} (CPU time: count operations instead)")
            continue
        parents = _parents(tree) if parents is None else parents
        call = parents.get(node)
        if (
            isinstance(call, ast.Call)
            and call.func is node
            and _as_deadline(call, parents.get(call))
        ):
            continue
        found.append(f"{where}:{node.lineno} {clock} (kept or subtracted: a duration)")
    return found + _code_in_strings(nodes, where) if strings else found


def file_clock_reads(path: Path) -> list[str]:
    """:func:`clock_reads` of a file (the shared parse: :mod:`tests.architecture.sources`),
    named by its path from the repository root; the check's own samples (:data:`BAD`) are
    left out."""
    if not CLOCK_MODULE_WORD.search(sources.source(path)):
        return []
    return _reads(
        sources.tree(path),
        sources.nodes(path),
        str(path.relative_to(ROOT)),
        strings=path != Path(__file__).resolve(),
    )


def test_no_test_reads_a_clock_to_assert() -> None:
    found = [problem for path in suite_files() for problem in file_clock_reads(path)]
    assert not found, (
        "tests that read a clock: assert by counting (gent_core.testing.count_steps, "
        "assert_linear, calls, bytes, tokens); a wall clock only as a deadline, "
        "now() + seconds compared with now():\n" + "\n".join(found)
    )


def test_the_check_reaches_every_test_suite() -> None:
    files = {path.relative_to(ROOT).parts[:3] for path in suite_files()}
    assert ("gent_core", "testing", "_conformance") in files
    assert ("plugins", "gent-pythonic", "tests") in files
    assert ("tests", "architecture", "test_no_test_reads_a_clock.py") in files


BAD = {
    "cpu time": "import time\nstart = time.process_time()\n",
    "thread time": "import time\nx = time.thread_time_ns()\n",
    "rusage": "import resource\nresource.getrusage(resource.RUSAGE_SELF)\n",
    "rusage by name": "from resource import getrusage as g\ng(0)\n",
    "os.times": "import os\nos.times()\n",
    "a kept reading": "import time\nstarted = time.perf_counter()\n",
    "a duration": "import time\nassert time.monotonic() - started < 1\n",
    "reading minus reading": "import time\nd = time.time() - time.time()\n",
    "minus a name": "import time\nd = time.time() - then\n",
    "an alias": "import time as t\nx = [t.monotonic()]\n",
    "by name": "from time import perf_counter\nstart = perf_counter()\n",
    "passed on": "import time\nprint(time.monotonic())\n",
    "a reference": "import time\nclock = time.perf_counter\n",
    "a CPU clock in a deadline": "import time\nd = time.process_time() + 60\n",
    "in a child's script": 'SCRIPT = """\nimport resource\nprint(resource.getrusage(0))\n"""\n',
    "in an indented script": 'run("""\n    import time\n    t = time.perf_counter()\n""")\n',
}

GOOD = {
    "a deadline": "import time\ndeadline = time.monotonic() + 60\n",
    "a wait": "import time\nwhile time.monotonic() < deadline:\n    pass\n",
    "a hang guard": "import time\nassert time.monotonic() < deadline, 'hung'\n",
    "a deadline by name": "from time import monotonic as now\nd = now() + 5\nok = now() > d\n",
    "a month ago": "import time\nold = time.time() - 31 * 86400\n",
    "a past moment, then steps": "import time\nm = time.time() - 10_000 + 100 * step\n",
    "sleeping": "import time\ntime.sleep(1)\n",
    "patching by name": "import time\nmonkeypatch.setattr(time, 'monotonic', fake)\n",
    "another module's time": "import datetime\ndatetime.time(12)\n",
    "a method named time": "x = record.time()\n",
    "prose naming a clock": '"""Not time.process_time(): import nothing, count."""\n',
    "a child's script with a deadline": 'S = """\nimport time\nd = time.monotonic() + 9\n"""\n',
}


def test_the_check_flags_every_way_of_measuring() -> None:
    for label, source in BAD.items():
        assert clock_reads(source, "m.py"), label
    assert clock_reads(BAD["a duration"], "m.py") == [
        "m.py:2 time.monotonic (kept or subtracted: a duration)"
    ]
    assert clock_reads(BAD["cpu time"], "m.py") == [
        "m.py:2 time.process_time (CPU time: count operations instead)"
    ]


def test_the_check_lets_deadlines_and_sleeps_pass() -> None:
    for label, source in GOOD.items():
        assert clock_reads(source, "m.py") == [], label

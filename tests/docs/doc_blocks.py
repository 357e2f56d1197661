"""Find, run and check the Python code blocks of Markdown pages (the doc-block test's engine;
the shell blocks' session is ``shell_blocks.py``).

The conventions (documented for writers in ``docs/contributing-docs.md``):

* A fenced block whose language is ``python`` or ``py`` is **run**. The blocks of one page run
  in order, in one namespace, in a fresh process whose working directory is an empty temporary
  directory, so a later block can use what an earlier one defined. Top-level ``await`` works.
  With a :class:`BlockServer` (where ``os.fork`` exists) that process is forked from one that
  imported gent, the plugins and what the pages import once; otherwise it is a new Python.
* A block marked ```` ```python {test="skip"} ```` is **not run** (it needs a server, the
  network, or it is a fragment). The mark renders as plain Python on GitHub and in MkDocs.
* A block marked ```` ```python {test="slow"} ```` runs the bundled local model: it runs with
  the slow tests (``check_page(..., slow=True)``); the fast run of the page leaves it out.
* A fenced ```` ```output ```` block is **what the Python block before it prints**: the first
  fenced block after a run block, with only prose between them. The printed text must equal
  it (trailing spaces and blank lines at the end aside). An ``output`` block that does not
  follow a run block is an error, so a check can never be silently lost.
* Shell blocks (``bash``, ``sh``, ``shell``, ``console``) take the marks ``{test="slow"}``,
  ``{test="openai"}`` and ``{test="ci"}`` (``shell_blocks.py`` says what they mean); any other
  mark, on a Python or a shell block, is an error.
"""

from __future__ import annotations

import ast
import difflib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "PYTHON_LANGUAGES",
    "SHELL_LANGUAGES",
    "Block",
    "BlockResult",
    "BlockServer",
    "Page",
    "check_page",
    "page_imports",
    "parse_page",
    "run_page",
]

PYTHON_LANGUAGES = frozenset({"python", "py", "python3"})
OUTPUT_LANGUAGE = "output"
SHELL_LANGUAGES = frozenset({"bash", "sh", "shell", "console"})
TEST_MODES = frozenset({"skip", "slow"})
SHELL_TEST_MODES = frozenset({"slow", "openai", "ci"})
SLOW_MODES = frozenset({"slow", "openai"})
RUNNER = Path(__file__).with_name("block_runner.py")

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_ATTRIBUTES = re.compile(r"\{(?P<body>[^{}]*)\}\s*$")
_ATTRIBUTE = re.compile(r"""(?P<key>[\w-]+)=(?P<quote>["']?)(?P<value>[^"'\s]*)(?P=quote)""")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, ``{key="value"}`` attributes, code and position."""

    language: str
    attributes: dict[str, str]
    code: str
    line: int  # 1-based line of the first line of code (the line after the opening fence)

    @property
    def is_python(self) -> bool:
        """Whether the block holds Python code."""
        return self.language in PYTHON_LANGUAGES

    @property
    def is_shell(self) -> bool:
        """Whether the block holds shell commands (``bash``, ``sh``, ``shell``, ``console``)."""
        return self.language in SHELL_LANGUAGES

    @property
    def runs(self) -> bool:
        """Whether the doc-block test runs the block (in the slow run, for a slow block): a
        Python block not marked ``skip``, a shell block not marked ``ci`` (shell blocks run on
        the pages the shell test names)."""
        mark = self.attributes.get("test")
        return (self.is_python and mark != "skip") or (self.is_shell and mark != "ci")

    @property
    def slow(self) -> bool:
        """Whether the block runs the real model or a server (marked ``{test="slow"}``, or
        ``{test="openai"}`` on a shell block): it runs with the slow tests only."""
        return self.runs and self.attributes.get("test") in SLOW_MODES


@dataclass(frozen=True)
class Page:
    """A Markdown page's fenced blocks and the problems found while reading it."""

    path: Path
    blocks: tuple[Block, ...]
    problems: tuple[str, ...]

    def expected_outputs(self) -> dict[int, Block]:
        """The ``output`` block of each run block that has one, by the run block's index."""
        expected: dict[int, Block] = {}
        for index, block in enumerate(self.blocks):
            if block.language != OUTPUT_LANGUAGE:
                continue
            previous = self.blocks[index - 1] if index else None
            if previous is not None and previous.is_python and previous.runs:
                expected[index - 1] = block
        return expected


def _dedent(line: str, indent: int) -> str:
    """Remove the fence's indentation (a block inside a list item) from a line of code."""
    return line[indent:] if not line[:indent].strip() else line.lstrip()


def _mark_problems(path: Path, line: int, language: str, attributes: dict[str, str]) -> list[str]:
    """An unknown ``{test="..."}`` mark on a Python or a shell block (the fence's line)."""
    if "test" not in attributes:
        return []
    mark = attributes["test"]
    if language in PYTHON_LANGUAGES and mark not in TEST_MODES:
        return [
            f"{path}:{line}: unknown test mode {mark!r}; "
            'the marks are {test="skip"} and {test="slow"}'
        ]
    if language in SHELL_LANGUAGES and mark not in SHELL_TEST_MODES:
        return [
            f"{path}:{line}: unknown test mode {mark!r} for a shell block; "
            'the marks are {test="slow"}, {test="openai"} and {test="ci"}'
        ]
    return []


def parse_page(path: Path, text: str | None = None) -> Page:
    """Read the fenced code blocks of a Markdown page (nested fences and lists included)."""
    lines = (path.read_text(encoding="utf-8") if text is None else text).splitlines()
    blocks: list[Block] = []
    problems: list[str] = []
    index = 0
    while index < len(lines):
        opening = _FENCE_OPEN.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence, indent = opening.group("fence"), len(opening.group("indent"))
        info = opening.group("info").strip()
        attributes: dict[str, str] = {}
        found = _ATTRIBUTES.search(info)
        if found:
            attributes = {
                m.group("key"): m.group("value") for m in _ATTRIBUTE.finditer(found.group("body"))
            }
            info = info[: found.start()].strip()
        language = info.split()[0].lower() if info else ""
        start = index + 1
        end = start
        while end < len(lines):
            stripped = lines[end].strip()
            if stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0]):
                break
            end += 1
        else:
            problems.append(f"{path}:{index + 1}: code block never closed")
        code = "\n".join(_dedent(line, indent) for line in lines[start:end])
        problems.extend(_mark_problems(path, index + 1, language, attributes))
        blocks.append(Block(language, attributes, code + "\n" if code else "", start + 1))
        index = end + 1
    page = Page(path, tuple(blocks), tuple(problems))
    orphans = [
        f"{path}:{block.line - 1}: an output block must directly follow a Python block that "
        "runs (the first code block after it); use ```text for output that is not checked"
        for i, block in enumerate(blocks)
        if block.language == OUTPUT_LANGUAGE and i not in {k + 1 for k in page.expected_outputs()}
    ]
    return Page(path, page.blocks, (*problems, *orphans))


@dataclass(frozen=True)
class BlockResult:
    """What one block printed, and the traceback if it raised."""

    stdout: str
    error: str | None


def _runs(block: Block, slow: bool) -> bool:
    return block.is_python and block.runs and (slow or not block.slow)


def _examples() -> list[str]:
    """The runner's argument that gives the page the hypothesis profile's number of examples
    of this test session (``--hypothesis-profile``), when it is not hypothesis's default: a
    page's property checks (the conformance kit's) run as many examples as the test's own."""
    from hypothesis import settings

    examples = settings.default.max_examples if settings.default is not None else None
    if examples is None or examples == settings.get_profile("default").max_examples:
        return []
    return [str(examples)]


def _environment() -> dict[str, str]:
    """This process's environment, with hypothesis's storage (its example database and the
    Unicode tables it computes once, seconds of work) where this test session keeps it, not
    in the page's empty working directory."""
    storage = os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY") or str(Path.cwd() / ".hypothesis")
    return {**os.environ, "HYPOTHESIS_STORAGE_DIRECTORY": storage}


def page_imports(pages: Iterable[Page]) -> list[str]:
    """The installed modules the pages' fast-run blocks import (``import x.y``, ``from x.y
    import z``: ``x.y``), for :class:`BlockServer` to import before any page runs."""
    names: set[str] = set()
    for page in pages:
        for block in page.blocks:
            if not _runs(block, slow=False):
                continue
            try:
                tree = ast.parse(block.code)
            except SyntaxError:
                continue  # the page's run reports it
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names.add(node.module)
    tops = {name.split(".")[0] for name in names}
    installed = {top for top in tops if top != "__future__" and importlib.util.find_spec(top)}
    return sorted(name for name in names if name.split(".")[0] in installed)


class BlockServer:
    """A block runner that imports gent, the plugins and ``preload`` once and forks a fresh
    process for each page from there (``block_runner.py --serve``), instead of starting
    Python and importing gent again for every page (about a CPU-second each).

    A page's process is still its own: its working directory, environment, imports and
    namespace end with it. Only where ``os.fork`` exists (:meth:`available`); the runner is
    started on first use and again after it stopped.
    """

    def __init__(self, preload: Iterable[str] = ()) -> None:
        # hypothesis: the runner's own import, for a session's profile
        self._preload = sorted({*preload, "hypothesis"})
        self._process: subprocess.Popen[str] | None = None
        self._stderr: tempfile._TemporaryFileWrapper[str] | None = None

    @staticmethod
    def available() -> bool:
        """Whether pages can be forked here (not on Windows)."""
        return hasattr(os, "fork")

    def _start(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        self.close()
        self._stderr = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed in close()
            "w+", encoding="utf-8", prefix="gent-block-server-", suffix=".txt"
        )
        self._process = subprocess.Popen(
            [sys.executable, str(RUNNER), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            cwd=tempfile.gettempdir(),
            env=_environment(),
        )
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(self._preload) + "\n")
        return self._process

    def run(
        self, page: Path, blocks: list[dict[str, object]], cwd: Path, timeout: float
    ) -> tuple[list[BlockResult], str]:
        """Run one page's blocks in a process forked for it; what :func:`run_page` returns."""
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        examples = _examples()
        request = {
            "page": str(page),
            "blocks": blocks,
            "cwd": str(cwd),
            "env": _environment(),
            "examples": int(examples[0]) if examples else None,
            "timeout": timeout,
        }
        try:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
        except OSError:
            line = ""
        if not line:
            return [], f"the block server stopped (exit {process.wait()}):\n{self._server_errors()}"
        answer = json.loads(line)
        if answer["results"] is None:
            return [], (f"the block runner crashed (exit {answer['status']}):\n{answer['stderr']}")
        return [BlockResult(r["stdout"], r["error"]) for r in answer["results"]], answer["stderr"]

    def _server_errors(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        return self._stderr.read()

    def close(self) -> None:
        """Stop the runner (it ends when its standard input closes)."""
        if self._process is not None:
            if self._process.stdin is not None:
                self._process.stdin.close()
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._process = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None


def run_page(
    page: Page,
    cwd: Path,
    timeout: float = 300,
    *,
    slow: bool = False,
    server: BlockServer | None = None,
) -> tuple[list[BlockResult], str]:
    """Run the page's runnable blocks in order, in one namespace, in a fresh Python process
    (its ``{test="slow"}`` blocks only with ``slow``): forked by ``server`` when one is given,
    else a new Python.

    Returns the result of each block that ran (running stops at the first error) and the
    process's stderr. The process runs in ``cwd``.
    """
    blocks: list[dict[str, object]] = [
        {"code": b.code, "line": b.line} for b in page.blocks if _runs(b, slow)
    ]
    if server is not None:
        return server.run(page.path, blocks, cwd, timeout)
    with tempfile.TemporaryDirectory() as results_dir:
        results_file = Path(results_dir) / "results.json"
        process = subprocess.run(
            [sys.executable, str(RUNNER), str(page.path), str(results_file), *_examples()],
            input=json.dumps(blocks),
            capture_output=True,
            text=True,
            cwd=cwd,
            env=_environment(),
            timeout=timeout,
        )
        if not results_file.exists():
            return [], f"the block runner crashed (exit {process.returncode}):\n{process.stderr}"
        raw = json.loads(results_file.read_text(encoding="utf-8"))
    return [BlockResult(r["stdout"], r["error"]) for r in raw], process.stderr


def _normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def check_page(
    page: Page, cwd: Path, *, slow: bool = False, server: BlockServer | None = None
) -> list[str]:
    """Run a page and return every problem: reading problems, failing blocks, wrong output.
    Its ``{test="slow"}`` blocks (the real model) run only with ``slow``; in a process
    forked by ``server`` when one is given (see :func:`run_page`)."""
    problems = list(page.problems)
    if problems:
        return problems
    runnable = [index for index, block in enumerate(page.blocks) if _runs(block, slow)]
    if not runnable:
        return []
    results, stderr = run_page(page, cwd, timeout=1800 if slow else 300, slow=slow, server=server)
    if not results:
        return [f"{page.path}: {stderr}"]
    expected = page.expected_outputs()
    for index, result in zip(runnable, results, strict=False):
        block = page.blocks[index]
        if result.error is not None:
            problems.append(
                f"{page.path}:{block.line}: the block raised (line numbers are the page's):\n"
                f"{result.error}"
            )
            break
        shown = expected.get(index)
        if shown is not None and _normalise(result.stdout) != _normalise(shown.code):
            diff = "\n".join(
                difflib.unified_diff(
                    _normalise(shown.code).splitlines(),
                    _normalise(result.stdout).splitlines(),
                    "shown on the page",
                    "printed",
                    lineterm="",
                )
            )
            problems.append(
                f"{page.path}:{shown.line - 1}: the output block differs from what the block "
                f"at line {block.line} prints:\n{diff}"
            )
    return problems

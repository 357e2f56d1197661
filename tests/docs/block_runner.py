"""Run one page's code blocks in order, in one namespace (a subprocess of the doc-block test).

Usage: ``python block_runner.py PAGE RESULTS_FILE [EXAMPLES]`` with a JSON list of
``{"code", "line"}`` on standard input; EXAMPLES, if given, is the hypothesis profile's
number of examples for the page's properties (the test session's, when it chose one).
Writes a JSON list of ``{"stdout", "error"}``, one per block that ran, to RESULTS_FILE; stops
at the first block that raises. Each block is compiled with its page's
name and line numbers, so a traceback points at the page; top-level ``await`` is allowed.
As with ``python -c``, modules in the working directory are importable.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import inspect
import io
import json
import sys
import traceback
from pathlib import Path
from typing import Any


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


def main() -> None:
    # Like ``python -c``: the working directory, not this file's folder, is importable.
    sys.path[0] = ""
    page, results_file = sys.argv[1], Path(sys.argv[2])
    if len(sys.argv) > 3:
        from hypothesis import settings

        settings.register_profile("doc-blocks", max_examples=int(sys.argv[3]))
        settings.load_profile("doc-blocks")
    blocks = json.loads(sys.stdin.read())
    results_file.write_text(json.dumps(run_blocks(page, blocks)), encoding="utf-8")


if __name__ == "__main__":
    main()

"""Run the ``gent`` command in this process, as a test would run it in a subprocess.

Starting Python and importing gent for each command is most of a command-line test's cost (on a
loaded machine, seconds per test). :func:`gent_in_process` gives what ``subprocess.run`` gives
(exit status, standard output and error as bytes) for a test that is about what the command
does, not about the process: standard input is a real file (the task's bytes, or
``/dev/null``), the working directory and the environment are the test's, and all of it is put
back afterwards.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from gent_core.testing import run_cli

__all__ = ["gent_in_process"]


@contextmanager
def _environment(cwd: Path, env: Mapping[str, str]) -> Iterator[None]:
    saved_cwd, saved_env = os.getcwd(), dict(os.environ)
    os.chdir(cwd)
    os.environ.update(env)
    try:
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


@contextmanager
def _standard_streams(stdin: bytes | None) -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.BytesIO(), io.BytesIO()
    with tempfile.TemporaryFile() as piped:
        if stdin is not None:
            piped.write(stdin)
            piped.seek(0)
        source = open(  # noqa: SIM115 - closed below
            piped.fileno() if stdin is not None else os.devnull,
            encoding="utf-8",
            closefd=stdin is None,
        )
        writers = [
            io.TextIOWrapper(stream, encoding="utf-8", write_through=True) for stream in (out, err)
        ]
        sys.stdin, sys.stdout, sys.stderr = source, writers[0], writers[1]
        try:
            yield out, err
        finally:
            sys.stdin, sys.stdout, sys.stderr = saved
            for writer in writers:
                writer.flush()
                writer.detach()  # the bytes stay readable
            source.close()


def gent_in_process(
    cwd: Path,
    arguments: Sequence[str],
    *,
    stdin: bytes | None = None,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """Run ``gent ARGUMENTS`` here, from ``cwd``, with ``env`` added to the environment and
    ``stdin`` (``None``: ``/dev/null``) as standard input; what ``subprocess.run`` with
    ``capture_output=True`` would return."""
    with _environment(cwd, env or {}), _standard_streams(stdin) as (out, err):
        try:
            code = run_cli(list(arguments))
        except SystemExit as exit_:  # argparse's usage errors, --version
            code = exit_.code if isinstance(exit_.code, int) else 1
    return subprocess.CompletedProcess(["gent", *arguments], code, out.getvalue(), err.getvalue())

"""The stdio transport: an MCP server in a process group of its own, ended whole on close.

The MCP SDK's stdio client ends a server's process group only when the server refuses to exit
after its stdin is closed; a server that exits by itself leaves the processes it started (a
worker, a ``sleep``) running. On POSIX, :func:`stdio_transport` starts the server in a new
session (so its process group holds it and everything it starts) and, when the connection
closes, whatever the server did:

1. closes the server's stdin (how MCP asks a stdio server to exit) and gives it
   :data:`EXIT_GRACE` seconds to exit;
2. sends SIGTERM to the whole group and gives it :data:`TERM_GRACE` seconds to go;
3. sends SIGKILL to whatever is left.

The messages are newline-delimited JSON-RPC, as the SDK's client reads and writes them; a line
that is not a JSON-RPC message reaches the session as an exception (the SDK's way), except a
reply the SDK cannot read, which fails its call at once (:mod:`gent_mcp.replies`). Lines are
read through :func:`gent_core.bounds.bounded_lines`: a line longer than ``max_line_chars`` (a
server writing without end) closes the connection instead of filling the memory.

On Windows the SDK's own transport is used: it puts the server in a Job Object whose closing
ends every process in it, whether the server exited by itself or not.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import anyio
    from anyio.abc import Process
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
    from mcp.shared.message import SessionMessage

__all__ = ["EXIT_GRACE", "TERM_GRACE", "end_process_group", "stdio_transport"]

EXIT_GRACE = 2.0
"""Seconds a server has to exit after its stdin is closed, before its group gets SIGTERM."""

TERM_GRACE = 2.0
"""Seconds the server's process group has to go after SIGTERM, before SIGKILL."""

_FLUSH_SECONDS = 0.5  # for messages already accepted to reach the server before stdin closes
_REAP_SECONDS = 2.0  # for the event loop to see a killed server exit
_POLL_SECONDS = 0.01


def _signal_group(group: int, signal_number: int) -> bool:
    """Send ``signal_number`` to the process group; ``False`` when the group is gone."""
    try:
        os.killpg(group, signal_number)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # a member we may not signal (a zombie on macOS): not proof it is gone
    return True


async def _wait(done: Any, seconds: float) -> bool:
    """Poll ``done()`` until it is true or ``seconds`` passed; return its last value."""
    import anyio

    with anyio.move_on_after(seconds):
        while not done():
            await anyio.sleep(_POLL_SECONDS)
        return True
    return bool(done())


async def end_process_group(
    process: Process, *, exit_grace: float = EXIT_GRACE, term_grace: float = TERM_GRACE
) -> None:
    """End a server started in a session of its own, and every process of its group.

    Closes its stdin, waits up to ``exit_grace`` seconds for it to exit, sends SIGTERM to the
    group, waits up to ``term_grace`` seconds for the group to go, then sends SIGKILL. Never
    raises for a process or group that is already gone.
    """
    import anyio

    if process.stdin is not None:
        with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await process.stdin.aclose()
    await _wait(lambda: process.returncode is not None, exit_grace)
    group = process.pid  # the leader of a new session: its pid is the group's id

    def group_gone() -> bool:
        _ = process.returncode  # lets the loop reap the leader, whose zombie keeps the group
        return not _signal_group(group, 0)

    if _signal_group(group, signal.SIGTERM) and not await _wait(group_gone, term_grace):
        _signal_group(group, signal.SIGKILL)
    await _wait(lambda: process.returncode is not None, _REAP_SECONDS)


def _parse(line: str) -> Any:
    """One line from the server: a ``SessionMessage``, or the exception that reading it gave.

    A reply the SDK cannot read (a lone surrogate, nesting past its parser's depth) becomes a
    JSON-RPC error for the request it answers, so that call fails at once instead of waiting
    for its timeout (see :mod:`gent_mcp.replies`).
    """
    import mcp_types
    from mcp.shared.message import SessionMessage

    try:
        message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except (ValueError, RecursionError) as error:
        from gent_mcp.replies import reply_id, unreadable_reply

        request_id = reply_id(line)
        return error if request_id is None else unreadable_reply(request_id, error)
    return SessionMessage(message)


@contextlib.asynccontextmanager
async def _posix_transport(
    command: Sequence[str],
    env: Mapping[str, str],
    cwd: Path,
    errlog: TextIO,
    max_line_chars: int,
    on_overflow: Callable[[str], None],
) -> AsyncIterator[Any]:
    """Start the server in a session of its own and yield the SDK's ``(read, write)`` pair;
    on exit, end the server's whole process group (the module docstring's steps).
    """
    import anyio
    from mcp.shared.message import SessionMessage

    process = await anyio.open_process(
        list(command), env=dict(env), cwd=cwd, stderr=errlog, start_new_session=True
    )
    to_session, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, from_session = anyio.create_memory_object_stream[SessionMessage](0)
    writer_done = anyio.Event()
    async with anyio.create_task_group() as group:
        group.start_soon(_read_stdout, process, to_session, max_line_chars, on_overflow)
        group.start_soon(_write_stdin, process, from_session, to_session, writer_done)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                read_stream.close()
                write_stream.close()
                with anyio.move_on_after(_FLUSH_SECONDS):
                    await writer_done.wait()
                await end_process_group(process)
                for stream in (to_session, from_session):
                    await stream.aclose()
                # Closes the pipes and the loop's transport (else it warns when collected).
                with anyio.move_on_after(_REAP_SECONDS):
                    await process.aclose()
            group.cancel_scope.cancel()


async def _read_stdout(
    process: Process,
    to_session: MemoryObjectSendStream[SessionMessage | Exception],
    max_line_chars: int,
    on_overflow: Callable[[str], None],
) -> None:
    """Send each non-blank line the server writes to the session, parsed (:func:`_parse`),
    until its stdout ends; once the session is gone, drain the pipe. A line longer than
    ``max_line_chars`` is told to ``on_overflow`` and ends the reading.
    """
    import anyio
    from anyio.streams.text import TextReceiveStream

    from gent_core.bounds import LineTooLongError, bounded_lines

    assert process.stdout is not None
    lines = bounded_lines(TextReceiveStream(process.stdout, errors="replace"), max_line_chars)
    delivering = True
    with contextlib.suppress(
        anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError
    ):
        async with to_session:
            try:
                async for line in lines:
                    if delivering and line.strip():
                        try:
                            await to_session.send(_parse(line))
                        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                            delivering = False  # the session is gone: drain the pipe
            except LineTooLongError as error:
                # Said before the stream closes, so calls in progress fail with it; the
                # server stays blocked on its full pipe until it is ended.
                on_overflow(
                    f"it wrote a line of more than {error.limit:,} characters (the "
                    "max_line_chars option), so its connection was closed"
                )


async def _write_stdin(
    process: Process,
    from_session: MemoryObjectReceiveStream[SessionMessage],
    to_session: MemoryObjectSendStream[SessionMessage | Exception],
    writer_done: anyio.Event,
) -> None:
    """Write each message of the session to the server's stdin, one JSON line each; when the
    server is gone, close ``to_session`` so the session sees the end. Sets ``writer_done``
    when it stops.
    """
    import anyio

    assert process.stdin is not None
    try:
        async with from_session:
            async for item in from_session:
                text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                await process.stdin.send((text + "\n").encode("utf-8", "replace"))
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
        await to_session.aclose()  # the server is gone: the session sees the end
    finally:
        writer_done.set()


def stdio_transport(
    command: Sequence[str],
    *,
    env: Mapping[str, str] | None,
    cwd: Path,
    errlog: TextIO,
    max_line_chars: int = 20_000_000,
    on_overflow: Callable[[str], None] = lambda reason: None,
) -> Any:
    """A (not yet entered) MCP client transport to the stdio server ``command``.

    Args:
        command: The program and its arguments.
        env: Variables set on top of the SDK's minimal inherited environment (``PATH``,
            ``HOME``...), or ``None`` for that environment alone.
        cwd: The server's working directory.
        errlog: Where the server's error output goes (a file with a descriptor).
        max_line_chars: The longest line the server may write (POSIX; the SDK's transport on
            Windows has no bound).
        on_overflow: Told why, when a line passes ``max_line_chars`` and the connection is
            closed.
    """
    from mcp.client.stdio import get_default_environment

    if sys.platform == "win32":  # the SDK's Job Object ends the whole tree there
        from mcp import StdioServerParameters
        from mcp.client.stdio import stdio_client

        program, *arguments = command
        parameters = StdioServerParameters(command=program, args=arguments, env=env, cwd=cwd)
        return stdio_client(parameters, errlog=errlog)
    return _posix_transport(
        command,
        get_default_environment() | dict(env or {}),
        cwd,
        errlog,
        max_line_chars,
        on_overflow,
    )

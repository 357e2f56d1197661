"""One live connection to an MCP server, hosted in a background task of its own.

The MCP SDK's client is a stack of anyio context managers (transport, session) that must be
entered and exited by the same task. An agent opens its toolsets in one task and closes them
in another (and calls tools from yet others), so :class:`ServerConnection` enters the SDK's
:class:`mcp.Client` inside a dedicated *host* task: :meth:`~ServerConnection.start` starts it
and waits until the server has listed its tools, :meth:`~ServerConnection.stop` asks it to
leave the context managers (which stops the server process) and waits for it. Tool calls
from any task of the same event loop go through the client the host task keeps open.

Whatever happens — a normal close, a failed start, a timeout, cancellation, Ctrl-C, a server
that crashed — the host task leaves the SDK's context managers, and the stdio transport's
shutdown closes the server's stdin, then terminates and finally kills its whole process group,
so nothing the server started outlives it (see :mod:`gent_mcp.stdio`). A stdio server still
running when gent exits without that shutdown (the one-second bound of Ctrl-C) is killed by
an exit handler (:mod:`gent_mcp.processes`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from gent_core.errors import GentError, Location, describe_error
from gent_mcp import processes
from gent_mcp.options import MCPOptions
from gent_mcp.output_schemas import drop_pattern_checks
from gent_mcp.replies import is_unreadable_reply

if TYPE_CHECKING:
    import mcp_types
    from mcp import Client

__all__ = ["ServerConnection", "ServerGoneError", "ServerStartError", "UnreadableReplyError"]

_STDERR_TAIL_BYTES = 4000
_STDERR_TAIL_LINES = 15
_MAX_TOOL_PAGES = 100
_PYTHON_NAMES = frozenset({"python", "python3"})


class ServerStartError(GentError):
    """An MCP server could not be started, or did not list its tools."""


class ServerGoneError(GentError):
    """The MCP server of a tool is no longer running (it crashed or was stopped)."""


class UnreadableReplyError(GentError):
    """The MCP server answered a call with a reply that could not be read (see
    :mod:`gent_mcp.replies`).
    """


def _leaf(error: BaseException) -> BaseException:
    """The first innermost exception of (nested) exception groups (anyio task groups)."""
    while True:
        inner = getattr(error, "exceptions", None)
        if not inner:
            return error
        error = inner[0]


def _describe(error: BaseException) -> str:
    return describe_error(_leaf(error))


class ServerConnection:
    """The client side of one MCP server: started, called, stopped.

    Args:
        options: The server's options (transport, timeouts...).
        label: The server's name in messages (``"git"``).
    """

    def __init__(self, options: MCPOptions, label: str) -> None:
        self.options = options
        self.label = label
        self._host: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_requested: asyncio.Event | None = None
        self._client: Client | None = None
        self._stderr: TextIO | None = None
        self._gone: str | None = None
        self._server_pid: int | None = None

    # ------------------------------------------------------------------ state

    @property
    def running(self) -> bool:
        """Whether the server is connected and usable from the current state."""
        return (
            self._client is not None
            and self._host is not None
            and not self._host.done()
            and self._gone is None
        )

    def describe(self) -> str:
        """``git (stdio: python -m mcp_server_git)``."""
        return f"{self.label} ({self.options.transport}: {self.options.target()})"

    def stderr_tail(self) -> str:
        """The last lines the server wrote to its error output (captured mode), or ``""``."""
        stream = self._stderr
        if stream is None or stream.closed:
            return ""
        try:
            stream.flush()
            size = os.fstat(stream.fileno()).st_size
            with open(stream.fileno(), "rb", closefd=False) as raw:
                raw.seek(max(0, size - _STDERR_TAIL_BYTES))
                data = raw.read()
        except OSError:
            return ""
        lines = data.decode("utf-8", "replace").strip().splitlines()
        return "\n".join(lines[-_STDERR_TAIL_LINES:])

    def _with_stderr(self, message: str) -> str:
        tail = self.stderr_tail()
        return f"{message}\nThe server's last error output:\n{tail}" if tail else message

    # ------------------------------------------------------------------ starting

    async def start(self, working_directory: Path) -> list[mcp_types.Tool]:
        """Start the server (or connect to it), wait for it to list its tools, return them.

        Raises:
            ServerStartError: Saying why the server did not start (program not found, it
                exited, it did not answer within ``startup_timeout``...), with the last
                lines of its error output.
        """
        if self._host is not None:
            raise RuntimeError(f"the MCP server {self.label!r} was already started")
        self._loop = asyncio.get_running_loop()
        self._stop_requested = asyncio.Event()
        self._gone = None
        transport_factory = self._transport_factory(Path(working_directory))
        ready: asyncio.Future[list[mcp_types.Tool]] = self._loop.create_future()
        before = processes.children() if self.options.command is not None else None
        self._host = asyncio.create_task(
            self._serve(transport_factory, ready), name=f"gent-mcp server {self.label}"
        )
        timeout = self.options.startup_timeout
        try:
            done, _ = await asyncio.wait({ready}, timeout=timeout)
        except BaseException:  # cancelled while starting: stop the server, then give up
            if before is not None:
                self._server_pid = processes.new_server(before)
            await self.stop()
            raise
        if before is not None:
            self._server_pid = processes.new_server(before)
        if not done:
            message = self._with_stderr(
                f"the MCP server {self.describe()} did not start and list its tools within "
                f"{timeout:g} s (option startup_timeout)"
            )
            await self.stop()
            raise ServerStartError(message)
        error = ready.exception() if not ready.cancelled() else asyncio.CancelledError()
        if error is not None:
            message = self._with_stderr(self._start_failure(error))
            await self.stop()
            raise ServerStartError(message) from _leaf(error)
        return ready.result()

    def _start_failure(self, error: BaseException) -> str:
        leaf = _leaf(error)
        what = f"the MCP server {self.describe()}"
        if self._gone is not None:  # the transport said why it closed the connection
            return f"{what} could not be started: {self._gone}"
        if isinstance(leaf, FileNotFoundError) and self.options.command is not None:
            return (
                f"{what} could not be started: the program {self.options.command[0]!r} (or "
                f"its working directory) was not found ({leaf})"
            )
        if isinstance(leaf, PermissionError) and self.options.command is not None:
            return f"{what} could not be started: {leaf}"
        from mcp import MCPError
        from mcp_types import CONNECTION_CLOSED
        from pydantic import ValidationError

        if isinstance(leaf, ValidationError):
            return (
                f"{what} answered with a result that is not valid MCP (while starting and "
                f"listing its tools): {describe_error(leaf)}"
            )
        if isinstance(leaf, MCPError) and leaf.code == CONNECTION_CLOSED:
            if self.options.command is not None:
                return f"{what} exited before it answered (is it an MCP server over stdio?)"
            return f"{what} closed the connection before it answered"
        return f"{what} could not be started: {_describe(error)}"

    def _transport_factory(self, working_directory: Path) -> Any:
        """Return a function that builds the (not yet entered) SDK transport."""
        options = self.options
        if options.url is not None:
            url = options.url
            headers = dict(options.headers)

            def http_transport(stack: contextlib.AsyncExitStack) -> Any:
                from mcp.client.streamable_http import streamable_http_client

                if not headers:
                    return streamable_http_client(url)
                import httpx2

                client = httpx2.AsyncClient(
                    headers=headers, timeout=httpx2.Timeout(30.0, read=300.0)
                )
                stack.push_async_callback(client.aclose)
                return streamable_http_client(url, http_client=client)

            return http_transport

        assert options.command is not None
        cwd = working_directory / options.cwd if options.cwd else working_directory
        if not cwd.is_dir():
            raise ServerStartError(
                f"the MCP server {self.describe()} cannot start: its working directory "
                f"{cwd} does not exist",
                hint="Fix the 'cwd' option (relative to the agent's working directory).",
            )
        program, *arguments = options.command
        program = self._resolve_program(program)
        environment = {**os.environ, **options.env} if options.inherit_env else dict(options.env)
        if options.stderr == "capture":
            # Append mode: the server writes at the end whatever we read meanwhile.
            self._stderr = tempfile.TemporaryFile(  # noqa: SIM115 - closed by stop()
                "a+", encoding="utf-8", errors="replace"
            )
            errlog: TextIO = self._stderr
        else:
            errlog = sys.stderr if _has_fileno(sys.stderr) else sys.__stderr__  # type: ignore[assignment]

        def stdio_transport(stack: contextlib.AsyncExitStack) -> Any:
            from gent_mcp.stdio import stdio_transport

            return stdio_transport(
                [program, *arguments],
                env=environment or None,
                cwd=cwd,
                errlog=errlog,
                max_line_chars=options.max_line_chars,
                on_overflow=self._overflowed,
            )

        return stdio_transport

    def _overflowed(self, reason: str) -> None:
        """The transport closed the connection because the server wrote past a bound."""
        if self._gone is None:
            self._gone = reason

    def _resolve_program(self, program: str) -> str:
        """``python``/``python3`` is the Python running gent; other names are looked up on
        ``PATH`` so a missing program is reported before anything starts.
        """
        if program in _PYTHON_NAMES and sys.executable:
            return sys.executable
        if os.sep in program or (os.altsep and os.altsep in program):
            return program
        if shutil.which(program) is None:
            raise ServerStartError(
                f"the MCP server {self.describe()} cannot start: the program {program!r} "
                "was not found on PATH",
                hint="Install the server, or give the program's full path in 'command'.",
            )
        return program

    async def _serve(self, transport_factory: Any, ready: asyncio.Future[Any]) -> None:
        """The host task: enter the SDK client, list the tools, wait for :meth:`stop`."""
        from mcp import Client
        from mcp_types import Implementation

        from gent_core import __version__

        assert self._stop_requested is not None
        try:
            async with contextlib.AsyncExitStack() as stack:
                client = Client(
                    transport_factory(stack),
                    client_info=Implementation(name="gent", version=__version__),
                )
                await stack.enter_async_context(client)
                tools = await _list_tools(client)
                drop_pattern_checks(tools, self.label)
                self._client = client
                if not ready.done():
                    ready.set_result(tools)
                await self._stop_requested.wait()
        except asyncio.CancelledError:
            if not ready.done():
                ready.cancel()
            raise
        except Exception as error:  # noqa: BLE001 - handed to start(), or the server died
            if not ready.done():
                ready.set_exception(error)
            elif self._gone is None:
                self._gone = f"its connection failed ({_describe(error)})"
        finally:
            self._client = None

    # ------------------------------------------------------------------ calling

    async def call(self, name: str, arguments: dict[str, Any]) -> mcp_types.CallToolResult:
        """Call the server's tool ``name``.

        Raises:
            ServerGoneError: The server is not running (any more): it crashed during this
                call or an earlier one, was stopped, or belongs to another event loop.
            mcp.MCPError: The server answered with a protocol error.
        """
        self._check_usable(name)
        client = self._client
        assert client is not None
        from mcp import MCPError
        from mcp_types import CONNECTION_CLOSED

        try:
            return await client.call_tool(name, arguments)
        except MCPError as error:
            if is_unreadable_reply(error.code, error.message, error.data):
                raise self._unreadable_error(name, error.message) from None
            if error.code != CONNECTION_CLOSED:
                raise
            if self._gone is None:
                self._gone = f"it stopped during a call to {name!r}"
            raise self._gone_error(name, during=True) from None

    def _unreadable_error(self, name: str, message: str) -> UnreadableReplyError:
        return UnreadableReplyError(
            f"the MCP server {self.describe()} answered the call to {name!r}: {message}",
            location=Location(tool=name),
            model_message=(
                f"Tool {name!r} failed: {message}. The call may have run on the server; its "
                "result is unknown."
            ),
        )

    def _check_usable(self, name: str) -> None:
        if self._loop is not None and self._loop is not asyncio.get_running_loop():
            raise ServerGoneError(
                f"the MCP server {self.describe()} was started in another event loop; open, "
                "run and close an agent with MCP toolsets in one event loop",
                model_message=f"Tool {name!r} is unavailable: its MCP server is not connected.",
            )
        if not self.running:
            raise self._gone_error(name, during=False)

    def _gone_error(self, name: str, *, during: bool) -> ServerGoneError:
        reason = self._gone or "it is not running (it was stopped, or never started)"
        if during:
            model = (
                f"Tool {name!r} failed: the MCP server {self.label!r} that provides it stopped "
                "while running this call. Its tools are unavailable for the rest of the run; "
                "do not call them again."
            )
        else:
            model = (
                f"Tool {name!r} is unavailable: its MCP server {self.label!r} is no longer "
                f"running ({reason}). Do not call its tools again."
            )
        return ServerGoneError(
            self._with_stderr(f"the MCP server {self.describe()} is gone: {reason}"),
            location=Location(tool=name),
            model_message=model,
        )

    # ------------------------------------------------------------------ stopping

    async def stop(self) -> None:
        """Stop the server and wait until its process is gone; idempotent, never raises
        (except :class:`asyncio.CancelledError` when the caller is cancelled: the server is
        still stopped by the host task).
        """
        host, self._host = self._host, None
        try:
            if host is not None:
                if self._stop_requested is not None:
                    self._stop_requested.set()
                if not host.done() and self._loop is not asyncio.get_running_loop():
                    host.cancel()  # its loop is gone: the loop's shutdown cancelled it already
                elif not host.done():
                    if self._client is None:
                        # Still connecting (a server that does not answer): nothing to wait
                        # for. Cancelling leaves the SDK's context managers, which kill it.
                        host.cancel()
                    # The host leaves the client and stops the server; if we are cancelled
                    # meanwhile, it goes on stopping it.
                    await asyncio.wait({host})
                if host.done() and not host.cancelled():
                    host.exception()  # retrieved, so asyncio does not log it
        finally:
            self._client = None
            if host is not None and host.done():  # the SDK stopped the server
                processes.forget(self._server_pid)
            if self._gone is None:
                self._gone = "it was stopped"
            if self._stderr is not None:
                with contextlib.suppress(OSError):
                    self._stderr.close()
                self._stderr = None


def _has_fileno(stream: Any) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


async def _list_tools(client: Client) -> list[mcp_types.Tool]:
    """Every tool of the server, following pagination."""
    tools: list[mcp_types.Tool] = []
    cursor: str | None = None
    for _ in range(_MAX_TOOL_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools

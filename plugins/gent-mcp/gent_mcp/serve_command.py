"""``gent mcp-serve CONFIG``: serve an agent config's tools as an MCP server.

Over stdio by default (an MCP client starts ``gent mcp-serve agent.yaml`` as its server
command), or over streamable HTTP with ``--http HOST:PORT`` (endpoint ``/mcp``). The config's
tools, including those of its toolsets, are served; see :mod:`gent_mcp.serve`. The model of
the config is never loaded or called, so the config may have none (``tools:`` alone is a
whole config here; :data:`NO_MODEL` stands in for it). Over stdio every request is answered,
an unreadable one with a JSON-RPC error (see :mod:`gent_mcp.serve_stdio`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from gent_core.cliframe import Output, run_command
from gent_core.errors import GentError

if TYPE_CHECKING:
    from gent_core import Agent

__all__ = ["NO_MODEL", "add_arguments", "parse_address", "run"]

NO_MODEL = {"model": {"name": "scripted", "outputs": []}}
"""The model of a config that names none: gent's scripted model with nothing to say, built
(every agent has a model) but never loaded or called by ``gent mcp-serve``."""


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8000`` for IPv6) -> ``(host, port)``.

    Raises:
        argparse.ArgumentTypeError: Saying what is accepted.
    """
    host, separator, port = text.rpartition(":")
    host = host.strip("[]")
    if not separator or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, e.g. 127.0.0.1:8000, got {text!r}")
    return host, int(port)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent mcp-serve``."""
    parser.description = (
        "Serve the tools of an agent config as an MCP server (over stdio, or HTTP with --http). "
        "The tools work in the config file's folder, not the current directory (--cwd DIR "
        "changes it)."
    )
    parser.add_argument(
        "config", help="the agent config whose tools are served (it needs no model)"
    )
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        type=parse_address,
        help="serve over streamable HTTP at http://HOST:PORT/mcp instead of stdio",
    )
    parser.add_argument("--path", default="/mcp", help="the HTTP endpoint's path (default: /mcp)")
    parser.add_argument(
        "--cwd",
        metavar="DIR",
        help="the tools' working directory (default: the config's working_directory, "
        "else the config file's folder, not the current directory)",
    )


async def _serve(agent: Agent, args: argparse.Namespace) -> None:
    from gent_mcp.serve import build_server

    try:
        await agent.open()
        server = build_server(agent)
        if args.http is None:
            from gent_mcp.serve_stdio import checked_stdio_server

            async with checked_stdio_server() as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())
        else:
            import uvicorn

            host, port = args.http
            app = server.streamable_http_app(streamable_http_path=args.path, host=host)
            config = uvicorn.Config(app, host=host, port=port, log_level="warning")
            print(
                f"gent mcp-serve: serving {len(agent.toolchain.tools if agent.toolchain else ())}"
                f" tool(s) at http://{host}:{port}{args.path}",
                file=sys.stderr,
                flush=True,
            )
            await uvicorn.Server(config).serve()
    finally:
        await agent.aclose()


def run(args: argparse.Namespace) -> int:
    """Serve until the client disconnects (stdio) or Ctrl-C; 2 on a bad config."""
    from pathlib import Path

    from gent_core import Agent, load_config

    output = Output()
    try:
        loaded = load_config(args.config, defaults=NO_MODEL)
        output.redact = loaded.redact
        agent = Agent.from_config(loaded)
        if args.cwd is not None:
            agent.working_directory = Path(args.cwd).resolve()
        # Ctrl-C, SIGTERM (how an MCP client ends its server) and SIGHUP stop the serving
        # task, so the config's own toolsets (their process groups) are stopped too.
        run_command(_serve(agent, args))
    except GentError as error:
        output.error("gent mcp-serve", str(error))
        return 2
    except KeyboardInterrupt:
        return 130
    return 0

"""gent-history's gent plugin: the ``gent logs`` command, and the run history of the commands
that run agents (``gent_resolve_run``: ``gent run``, ``gent chat``).

Cheap to import: the database, the recorder and the command load only when a command asks.
"""

from __future__ import annotations

from collections.abc import Mapping

from gent_core import Command, hookimpl
from gent_core.hookspecs import RunHistory

__all__ = ["gent_register_commands", "gent_resolve_run"]


@hookimpl
def gent_register_commands() -> Mapping[str, Command]:
    """``gent logs``."""
    return {
        "logs": Command("gent_history.logs", "list, search and show the logged runs (the history)")
    }


@hookimpl
def gent_resolve_run(
    resume: str | None, continue_conversation: bool, log: bool, command: str
) -> RunHistory:
    """The run history of a ``gent run`` or ``gent chat``: the logged run ``--resume ID``
    continues or the conversation ``--continue`` joins, and the recorder of its runs
    (:class:`~gent_history.session.HistorySession`).
    """
    from gent_history.session import open_session

    return open_session(
        resume=resume, continue_conversation=continue_conversation, log=log, command=command
    )

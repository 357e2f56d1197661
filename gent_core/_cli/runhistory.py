"""The run history of a command that runs agents (``gent run``, ``gent chat``), asked of the
plugins through the ``gent_resolve_run`` hook (gent-history answers it).

Without a plugin that answers, the command logs nothing and says nothing about it; only
``--continue`` and ``--resume ID`` (a logged run) are refused, naming the distribution that
supplies them (from the index of gent's own distributions: the one that supplies
``gent logs``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gent_core._cli.errors import UsageError
from gent_core.errors import GentError

if TYPE_CHECKING:
    from gent_core.hookspecs import RunHistory

__all__ = ["resolve_run_history"]


def resolve_run_history(
    command: str, *, resume: str | None, continue_conversation: bool, log: bool
) -> RunHistory | None:
    """The command's run history (``None`` when no plugin keeps one).

    Args:
        command: The command, for messages (``"gent run"``).
        resume: ``--resume VALUE``, or ``None``.
        continue_conversation: Whether ``--continue`` was given.
        log: ``False`` with ``--no-log``.

    Raises:
        GentError: The run to continue cannot be had (the plugin's error), or ``--continue``
            / ``--resume ID`` without a run history.
    """
    from gent_core._path_probe import probe_path
    from gent_core._plugins.manager import get_plugin_manager

    hook = get_plugin_manager().hook.gent_resolve_run
    try:
        history: RunHistory | None = hook(
            resume=resume, continue_conversation=continue_conversation, log=log, command=command
        )
    except GentError:
        raise
    except Exception as error:  # a plugin's bug: one line, never a traceback
        raise GentError(
            f"the run history failed: {type(error).__name__}: {error}",
            hint="gent plugins names the plugins; GENT_DISABLE_PLUGINS=NAME leaves one out",
        ) from error
    if history is not None:
        return history
    if continue_conversation:
        raise _missing("--continue (the last logged conversation)")
    if resume is not None and _could_be_a_run_id(resume) and not probe_path(resume).exists:
        raise _missing(f"--resume {resume} (no such transcript file; a logged run's id)")
    return None


def _could_be_a_run_id(value: str) -> bool:
    """Whether ``--resume VALUE`` may name a logged run rather than a transcript file: a
    run id (or a start of one) is at most 26 letters and digits.
    """
    return 0 < len(value) <= 26 and value.isascii() and value.isalnum()


def _missing(what: str) -> UsageError:
    """The error of an option that needs a run history when no plugin keeps one."""
    from gent_core._plugins.available import installed, supplier

    entry = supplier("command", "logs")
    if entry is None:
        where = "no plugin that keeps one is installed"
    elif installed(entry.distribution):
        where = (
            f"{entry.distribution} keeps it and is installed, but not loaded (disabled by "
            "GENT_DISABLE_PLUGINS or GENT_PLUGINS, or failed: gent plugins says which)"
        )
    else:
        where = (
            f"it is supplied by {entry.distribution} (not installed); from a checkout of gent: "
            f"{entry.install_command()}"
        )
    return UsageError(f"{what} needs the run history: {where}")

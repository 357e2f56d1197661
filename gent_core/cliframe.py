"""The command-line frame for plugin commands (``gent_register_commands``).

What a :class:`~gent_core.Command` needs to behave like gent's own: gent's help formatter
(:class:`HelpFormatter`), its coroutine run with gent's Ctrl-C handling
(:func:`run_command`), a usage error that prints as one line (:class:`UsageError`), output
with gent's redaction and terminal safety (:class:`Output`, :class:`Redactor`), terminals
and colour (:func:`is_terminal`, :func:`rich_console`), a documentation page's address for
messages (:func:`docs_url`) and the user's own directory of gent's data, by the platform's
convention (:func:`user_dir`, as ``click.get_app_dir`` is click's).

It exposes the frame only: it imports no command, no agent loop and no configuration
loading. Names load lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

_EXPORTS: dict[str, str] = {
    # the frame
    "HelpFormatter": "gent_core._cli.helpformat",
    "UsageError": "gent_core._cli.errors",
    "run_command": "gent_core._cli.interrupt",
    # output and terminals
    "Output": "gent_core._cli.output",
    "Redactor": "gent_core._config.secrets",
    "is_terminal": "gent_core._cli.colors",
    "rich_console": "gent_core._cli.colors",
    "docs_url": "gent_core._docs_url",
    # where an application keeps the user's data
    "user_dir": "gent_core._user_dirs",
}

if TYPE_CHECKING:
    from gent_core._cli.colors import (
        is_terminal,
        rich_console,
    )
    from gent_core._cli.errors import (
        UsageError,
    )
    from gent_core._cli.helpformat import (
        HelpFormatter,
    )
    from gent_core._cli.interrupt import (
        run_command,
    )
    from gent_core._cli.output import (
        Output,
    )
    from gent_core._config.secrets import (
        Redactor,
    )
    from gent_core._docs_url import (
        docs_url,
    )
    from gent_core._user_dirs import (
        user_dir,
    )

__all__ = [
    "HelpFormatter",
    "Output",
    "Redactor",
    "UsageError",
    "docs_url",
    "is_terminal",
    "rich_console",
    "run_command",
    "user_dir",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())

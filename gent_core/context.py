"""The execution context handed to tools and tool chains: where, with what, within which limits.

An :class:`ExecutionContext` holds the working directory, the :class:`Clipboard` (the texts
and files tools leave for the model: a result's second and third channels), the
:class:`Limits` of a run, a :class:`Cancellation` token, and the plugin hooks so tool chains
can fire the tool-call lifecycle hooks.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from gent_core._limit_rules import LIMIT_RULES, check_limit

if TYPE_CHECKING:
    from gent_core._workspace import Workspace

__all__ = [
    "Cancellation",
    "Clipboard",
    "ClipboardEntry",
    "ExecutionContext",
    "LifecycleHooks",
    "Limits",
]


class LifecycleHooks(Protocol):
    """Something that fires gent's lifecycle hooks by name, such as a
    :class:`~gent_core._plugins.manager.GentPluginManager`:
    ``hooks.hook.gent_before_tool_call(call=..., tool=..., context=...)``.

    A protocol, so that the contracts do not depend on the plugin system.
    """

    @property
    def hook(self) -> Any:
        """The hook relay: one attribute per hook name, each callable with keyword arguments."""
        ...


@dataclass
class Limits:
    """Bounds of one agent run. Every limit is enforced; exceeding one stops cleanly.

    Every value is checked when it is set (by the rule the configuration's keys follow:
    :mod:`gent_core._limit_rules`): ``Limits(max_steps=0)`` raises ``ValueError`` and
    ``Limits(max_steps="3")`` ``TypeError``, each naming the argument and what is accepted.

    Attributes:
        max_steps: Steps allowed in one run. A step is one model call, plus the calls that
            repair its tool calls (see ``max_repairs``); every model call counts against
            ``max_model_calls``.
        tool_timeout: Default seconds a tool call may take (a tool may set its own).
        model_timeout: Seconds one model call may take, ``None`` for no limit (the default).
            An output still being written at that point is treated as cut off (nothing in
            it runs, the model is told); a call that wrote nothing by then fails the run.
        model_idle_timeout: Seconds a model call may go without sending output text (the
            wait for the first text included), ``None`` for no limit. A back end that stays
            silent that long is taken as hung: the run stops with ``model_error``. A slow
            model that keeps writing is never stopped by it.
        max_output_chars: Characters one model call may write. The stream is closed at the
            bound and the output treated as cut off (finish reason ``output_limit``): nothing
            in it runs, the model is told.
        max_tool_output_chars: Formatted tool output beyond this is cut, with a note.
        max_recorded_output_chars: Characters of one tool output kept in the run's record
            (``--json``, the transcript); a longer output is recorded cut, and the record
            says how long it was (:class:`~gent_core.records.ToolCallRecord`).
        max_consecutive_format_errors: Unparseable outputs in a row before the run stops.
        max_consecutive_tool_errors: Steps whose tool calls all failed, in a row, before the
            run stops.
        max_calls_per_action: Tool calls one action section may hold. An action with more
            runs none of them: the model is told the limit and asked to split the work.
        max_clipboard_chars: Characters of clipboard (texts and file contents) shown to the
            model each step; the newest entries come first, and older entries that no longer
            fit are removed from the clipboard, with a note.
        max_repairs: Tries the model gets at writing one failed call again (a call that did
            not parse or validate), under that tool's grammar with the error in front of it,
            before the agent moves on (``0``: no repair; see :mod:`gent_core._agent.repair`).
        max_model_calls: Model calls allowed in one run, every one counted: each step's and
            each repair's. ``None`` (the default) is ``max_steps * (1 + max_repairs)``
            (:meth:`model_call_budget`). A repair is not asked for once the budget is spent
            (the call runs as written and fails), and the run stops: ``max_model_calls``.
        max_repeated_failures: Times the model may make the same failing call (the same
            tool with the same arguments, failing each time) in one run: the call that
            reaches it stops the run after its step (``repeated_failure``), instead of
            letting a model that repeats itself use up every step.
    """

    max_steps: int = 10
    tool_timeout: float = 60.0
    model_timeout: float | None = None
    model_idle_timeout: float | None = 300.0
    max_output_chars: int = 200_000
    max_tool_output_chars: int = 16_000
    max_recorded_output_chars: int = 100_000
    max_consecutive_format_errors: int = 3
    max_consecutive_tool_errors: int = 3
    max_calls_per_action: int = 16
    max_clipboard_chars: int = 32_000
    max_repairs: int = 2
    max_model_calls: int | None = None
    max_repeated_failures: int = 3

    def __setattr__(self, name: str, value: Any) -> None:
        if name in LIMIT_RULES:
            check_limit(name, value)
        super().__setattr__(name, value)

    def model_call_budget(self) -> int:
        """Model calls one run may make: ``max_model_calls``, by default
        ``max_steps * (1 + max_repairs)`` (each step may repair one call fully).
        """
        if self.max_model_calls is not None:
            return self.max_model_calls
        return self.max_steps * (1 + self.max_repairs)


class Cancellation:
    """A cancellation flag usable from the event loop and from worker threads.

    Sync tools running in a thread poll :attr:`cancelled`; async code awaits :meth:`wait`.
    """

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self.reason = ""

    def cancel(self, reason: str = "cancelled") -> None:
        """Request cancellation and run the registered callbacks; idempotent."""
        with self._lock:
            if self._event.is_set():
                return
            self.reason = reason
            self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback`` (from the cancelling thread) when cancellation is requested.

        Runs it at once when cancellation was already requested.

        Returns:
            A function that unregisters ``callback``.
        """
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(callback)
                return lambda: self._remove(callback)
        callback()
        return lambda: None

    def _remove(self, callback: Callable[[], None]) -> None:
        with self._lock, contextlib.suppress(ValueError):
            self._callbacks.remove(callback)

    @property
    def cancelled(self) -> bool:
        """Whether cancellation was requested."""
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        """Raise :class:`asyncio.CancelledError` when cancellation was requested."""
        if self._event.is_set():
            raise asyncio.CancelledError(self.reason)

    async def wait(self, poll_interval: float = 0.05) -> None:
        """Return once cancellation is requested."""
        while not self._event.is_set():
            await asyncio.sleep(poll_interval)


@dataclass(frozen=True)
class ClipboardEntry:
    """One clipboard item: a text, or a file (relative to the working directory).

    Attributes:
        text: The text, for a text entry.
        path: The file path, for a file entry; read fresh each time the clipboard is shown.
        source: The tool that added it.
    """

    text: str | None = None
    path: Path | None = None
    source: str = ""


@dataclass
class Clipboard:
    """Text and files that tools put aside for the model, shown to it on every step."""

    entries: list[ClipboardEntry] = field(default_factory=list)

    def add_text(self, text: str, *, source: str = "") -> None:
        """Add a text entry."""
        self.entries.append(ClipboardEntry(text=text, source=source))

    def add_file(self, path: Path, *, source: str = "") -> None:
        """Add a file entry (the path must already be checked to be inside the work dir)."""
        if not any(entry.path == path for entry in self.entries):
            self.entries.append(ClipboardEntry(path=path, source=source))

    def clear(self) -> None:
        """Remove every entry."""
        self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)


def _unchanged(text: str) -> str:
    """The redactor of a context without secrets: returns ``text`` as it is."""
    return text


@dataclass
class ExecutionContext:
    """Everything a tool call may depend on besides its arguments.

    Attributes:
        working_directory: The directory tools work in; clipboard files must stay inside it.
        clipboard: The run's clipboard.
        limits: The run's limits.
        cancellation: Set when the run is cancelled; long-running tools should honour it.
        plugin_manager: The plugin manager whose lifecycle hooks fire around tool calls,
            or ``None`` to fire none.
        state: Free-form per-run storage for plugins and tools.
        interrupt_stops: Whether a ``KeyboardInterrupt`` raised inside a tool call stops
            everything (``True``, in an interactive run, where it may be the user's Ctrl-C) or
            becomes that call's error result like any other exception (``False``, in a
            server such as ``gent mcp-serve``, whose other clients must not lose it).
        run_id: Identifies the run: unique to each run (a random hex string) and the same
            in every hook of that run, from ``gent_run_started`` to ``gent_run_finished``,
            so a plugin can pair what it sees; concurrent runs never share one.
        redact: Masks the configuration's credentials in free text (the ``redact`` of the
            agent's loaded config; no change for an agent built without one). Plugins that
            write text out of the process (logs, traces) pass it through this; the task and
            the answer are the user's own text and are never redacted.
    """

    working_directory: Path = field(default_factory=Path.cwd)
    clipboard: Clipboard = field(default_factory=Clipboard)
    limits: Limits = field(default_factory=Limits)
    cancellation: Cancellation = field(default_factory=Cancellation)
    plugin_manager: LifecycleHooks | None = None
    state: dict[str, Any] = field(default_factory=dict)
    interrupt_stops: bool = True
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    redact: Callable[[str], str] = field(default=_unchanged, repr=False)

    def workspace(self, tool: str) -> Workspace:
        """The working directory as a :class:`~gent_core.workspace.Workspace`: paths confined
        to it (``..``, absolute paths and symbolic links judged link by link) and opened
        without following a link. The clipboard's files are checked with it, and file tools
        use the same rules.

        Args:
            tool: The tool on whose behalf paths are resolved, for error messages.

        Raises:
            FileToolError: The working directory does not exist or is not a directory.
        """
        from gent_core._workspace import Workspace

        return Workspace(self.working_directory, tool=tool)

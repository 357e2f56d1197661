"""The hook specifications of gent: the plugin contract.

A plugin is a module (or any object) with functions marked ``@gent_core.hookimpl`` whose names
are the hooks below. It is found through the ``gent`` entry-point group::

    [project.entry-points.gent]
    myplugin = "my_package.plugin"

Registration hooks say which components a plugin supplies. They are called when the
registry is built and must be cheap: return classes, and import heavy libraries (HTTP
clients, model runtimes) only inside the components' methods.

Lifecycle hooks fire during a run: when it starts and ends, after each step, around model
calls and tool calls; middleware such as logging, tracing, approval policies or message
transformations is written with them. Every lifecycle hook receives the run's
:class:`~gent_core.context.ExecutionContext`, whose ``run_id`` is the same in every hook of
one run and differs between runs, concurrent ones included.

A lifecycle hook that raises never escapes the run: the run stops cleanly with the stop
reason ``plugin_error`` and a message naming the hook and the plugin that raised (the
tool-call hooks instead turn that call into an error result the model reads).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

if TYPE_CHECKING:
    from gent_core._plugins.commands import Command
    from gent_core._plugins.decisions import ToolCallDecision
    from gent_core.context import ExecutionContext
    from gent_core.errors import GentError
    from gent_core.formats import TextFormat
    from gent_core.messages import Message
    from gent_core.model import Model, ModelRequest, ModelResponse
    from gent_core.records import RunResult, StepRecord
    from gent_core.termination import Termination
    from gent_core.toolchain import ToolCall, ToolChain, ToolChainResult
    from gent_core.tools.base import Tool
    from gent_core.tools.result import ToolResult
    from gent_core.toolsets import Toolset

PROJECT_NAME = "gent"
"""The pluggy project name; also the entry-point group plugins are found in."""

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
"""The marker of gent's hook specifications (a plugin adding hooks uses it too)."""
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

__all__ = ["PROJECT_NAME", "RunHistory", "hookimpl", "hookspec"]


class RunHistory(Protocol):
    """What a run history (gent-history) gives a command that runs agents
    (:func:`gent_resolve_run`): the earlier run or conversation that the command continues,
    and the logging of its runs.

    Attributes:
        transcript: The logged run that ``--resume ID`` continues, read back (a transcript
            ``Agent.resume`` accepts), or ``None``.
        history: The messages of the conversation ``--continue`` joins, oldest first (empty
            otherwise).
        header: The ``run`` line of the resumed or continued run (the configuration it
            recorded), or ``None``.
        where: That run in words, for messages (``"the logged run 01JC3Q..."``).
        continued: The conversation ``--continue`` joins, in words, for the command to
            announce (``"conversation 01JC3Q... (2 earlier turns)"``), or ``None``.
        run_id: The id of the latest run logged so far (``None`` before one, or when nothing
            is logged): what ``--resume`` takes to continue it.
    """

    @property
    def transcript(self) -> object | None:
        """The logged run ``--resume ID`` continues, or ``None``."""

    @property
    def history(self) -> Sequence[Message]:
        """The messages of the conversation ``--continue`` joins."""

    @property
    def header(self) -> Mapping[str, Any] | None:
        """The ``run`` line of the resumed or continued run, or ``None``."""

    @property
    def where(self) -> str:
        """The resumed or continued run in words."""

    @property
    def continued(self) -> str | None:
        """The conversation ``--continue`` joins, in words, or ``None``."""

    @property
    def run_id(self) -> str | None:
        """The id of the latest logged run, or ``None``."""

    def attach(self, agent: Any, *, recorded: bool) -> None:
        """Log every run of ``agent`` from now on (nothing with ``--no-log`` or logging off).

        Args:
            agent: The command's :class:`~gent_core.Agent` (its runs are observed through
                the run hooks, as run-scoped middleware).
            recorded: Whether it was built from the configuration the resumed or continued
                run recorded (its runs are then logged under that run's configuration name).
        """

    def close(self) -> None:
        """Finish logging (wait for the writes) once the command is done with the agent."""


# --------------------------------------------------------------------------- extending the contract


@hookspec(historic=True)
def gent_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    """Add hook specifications of the plugin's own, so other plugins can extend it.

    As pytest's ``pytest_addhooks``::

        # my_package/hookspecs.py
        from gent_core import hookspec

        @hookspec
        def gent_eval_checks():
            "Supply check kinds of gent eval suites."

        # my_package/plugin.py
        from gent_core import hookimpl

        @hookimpl
        def gent_add_hookspecs(pluginmanager):
            from my_package import hookspecs

            pluginmanager.add_hookspecs(hookspecs)

    The plugin then calls its hooks itself (``pluginmanager.hook.gent_eval_checks()``).
    Names start with ``gent_`` and, by convention, the plugin's own word (``gent_eval_``).

    Called once for every plugin implementing it, when the plugin manager is created or when
    the plugin is registered later (a *historic* hook). Installed plugins may implement a
    hook before the plugin that specifies it is loaded: unknown hook names are checked once
    every installed plugin is in, and an implementation taking arguments the specification
    does not pass fails its own plugin. A hook nobody specifies still fails the plugin
    implementing it (a typo in the name).
    """


# --------------------------------------------------------------------------- registration


@hookspec
def gent_register_formats() -> Mapping[str, Callable[..., TextFormat]]:
    """Supply text formats.

    Returns:
        A mapping of component name (``"xml"``) to a factory, usually the
        :class:`~gent_core.formats.TextFormat` subclass. The factory is called with the
        options given in the agent config as keyword arguments.

    All implementations are called; results are merged (see :mod:`gent_core._plugins.registry`
    for name collisions).
    """


@hookspec
def gent_register_toolchains() -> Mapping[str, Callable[..., ToolChain]]:
    """Supply tool chains.

    Returns:
        A mapping of component name (``"json"``) to a factory, usually the
        :class:`~gent_core.toolchain.ToolChain` subclass. The factory is called with
        ``tools=[...]`` and the config's options as keyword arguments.

    All implementations are called; results are merged.
    """


@hookspec
def gent_register_terminations() -> Mapping[str, Callable[..., Termination]]:
    """Supply terminations (how the final answer is read).

    Returns:
        A mapping of component name (``"text"``) to a factory, usually the
        :class:`~gent_core.termination.Termination` subclass, called with the config's options
        as keyword arguments.

    All implementations are called; results are merged.
    """


@hookspec
def gent_register_tools() -> Sequence[Tool | type[Tool]]:
    """Supply tools.

    Returns:
        Tool objects (e.g. made with the ``@tool`` decorator) or :class:`~gent_core.tools.Tool`
        subclasses with a class-level ``name``; a class is instantiated with the config's
        options as keyword arguments. The component name is the tool's ``name``.

    All implementations are called; results are merged.
    """


@hookspec
def gent_register_models() -> Mapping[str, Callable[..., Model]]:
    """Supply model back ends.

    Returns:
        A mapping of component name (``"openai"``) to a factory, usually the
        :class:`~gent_core.model.Model` subclass, called with the config's options as keyword
        arguments. Import the back end's heavy libraries inside the model, not at module
        level, so listing plugins stays fast.

    All implementations are called; results are merged.
    """


@hookspec
def gent_register_toolsets() -> Mapping[str, Callable[..., Toolset]]:
    """Supply toolsets: sources of several tools with a lifetime (e.g. MCP servers).

    Returns:
        A mapping of component name (``"mcp"``) to a factory, usually the
        :class:`~gent_core.toolsets.Toolset` subclass, called with the options of a ``tools``
        entry written ``{<name>: {<options>}}`` in the agent config. The agent opens each
        toolset before its first run and closes it when the agent is closed.

    All implementations are called; results are merged.
    """


@hookspec
def gent_register_middleware() -> Mapping[str, Callable[..., object]]:
    """Supply middleware: lifecycle-hook plugins that an agent config switches on by name.

    Returns:
        A mapping of component name (``"natural"``) to a factory called with the options
        given in the config (``middleware: [{name: natural, ...}]`` or the shorthand
        ``natural: true`` / ``natural: {...}``). The factory returns an object whose methods
        are lifecycle hook implementations (marked with ``@hookimpl``, named ``gent_...``);
        it is registered for the runs of that agent only.

    All implementations are called; results are merged.
    """


@hookspec
def gent_register_commands() -> Mapping[str, Command]:
    """Supply subcommands of the ``gent`` command line.

    Every command comes through this hook: gent-core's own plugin (``core``) supplies the
    built-in ones (``run``, ``plugins``, ``help``...) the same way. Finding the commands
    calls this hook alone (no other registration hook runs), so it must be cheap.

    Returns:
        A mapping of command name (``"convert"``) to a
        :class:`~gent_core._plugins.commands.Command` naming the module that implements it
        (``add_arguments(parser)`` and ``run(args) -> int``) and one line of help.
        ``gent --help`` lists the commands from these objects; a command's module is
        imported only when that command runs or its help is shown, and a module that fails
        to import is reported then, naming the command and the error. A name taken by a
        built-in command or supplied by several plugins is left out with a warning.

    All implementations are called; results are merged.
    """


@hookspec(firstresult=True)
def gent_resolve_run(
    resume: str | None, continue_conversation: bool, log: bool, command: str
) -> RunHistory | None:
    """Called by the commands that run agents (``gent run``, ``gent chat``) before they build
    the agent: resolve the earlier run it continues, and say how its runs are logged.

    Args:
        resume: ``--resume VALUE``: a transcript file the agent appends to, or the id (or an
            unambiguous start of it) of a logged run; ``None`` without ``--resume``.
        continue_conversation: ``--continue``: the run joins the last logged conversation.
        log: ``False`` with ``--no-log``: nothing of this command is logged.
        command: The command, for messages (``"gent run"``).

    Returns:
        A :class:`RunHistory`; ``None`` leaves the command without a run history (nothing
        logged; ``--continue`` and ``--resume ID`` are then refused, naming the distribution
        that supplies them). Raise a :class:`~gent_core.errors.GentError` when the run to
        continue cannot be had (no such run, nothing logged, a damaged database).

    The first non-``None`` result wins (``firstresult``): one run history per command.
    """


# --------------------------------------------------------------------------- lifecycle


@hookspec
def gent_run_started(task: str, model: Model, context: ExecutionContext) -> None:
    """Called once when a run starts, after the model is loaded and before the first step.

    Every run that fires it fires :func:`gent_run_finished` once at its end, with the same
    ``context.run_id``; a resumed run (``Agent.resume``) is a new run continuing the steps
    of an earlier one.

    Args:
        task: The task, as the user wrote it.
        model: The model back end; :meth:`~gent_core.model.Model.identity` names the
            provider, the model and the kind of call (``chat``, ``text_completion``).
        context: The run's execution context; ``context.run_id`` identifies the run in
            every later hook, ``context.redact`` masks the configuration's credentials.

    All implementations are called; return values are ignored. A hook that raises stops
    the run before its first step (stop reason ``plugin_error``); :func:`gent_run_finished`
    still fires.
    """


@hookspec
def gent_step_finished(record: StepRecord, context: ExecutionContext) -> None:
    """Called after each step of a run, once its record is complete.

    Args:
        record: The step: the model's output, the outcome (``action``, ``answer`` or
            ``feedback``), the tool calls with their results, the model call's tokens and
            finish reason (a :class:`~gent_core.records.StepRecord`). Read it; do not change it.
        context: The run's execution context.

    All implementations are called; return values are ignored. Steps replayed from a
    transcript by a resumed run do not fire it.
    """


@hookspec
def gent_run_finished(result: RunResult, context: ExecutionContext) -> None:
    """Called once when a run ends, whatever the reason, with its result.

    Args:
        result: The run's result (a :class:`~gent_core.records.RunResult`): the answer, the
            stop reason and its message, every step and the statistics (token totals).
        context: The run's execution context, the one :func:`gent_run_started` received.

    All implementations are called; return values are ignored. A hook that raises turns
    the result into a ``plugin_error`` (with no answer). A run interrupted by
    ``KeyboardInterrupt`` or the cancellation of its asyncio task fires it too, with the
    stop reason ``cancelled`` and ``result.interrupted`` set (the run did not reach its end:
    a transcript writes no ``end`` line, so the run can be resumed), before the interruption
    goes on (a hook failing then is ignored).
    """


@hookspec
def gent_before_model_call(request: ModelRequest, context: ExecutionContext) -> None:
    """Called before every model call; may modify ``request`` in place.

    Args:
        request: The request about to be sent (messages, stop sequences...).
        context: The run's execution context.

    All implementations are called; return values are ignored.
    """


@hookspec
def gent_after_model_call(
    request: ModelRequest, response: ModelResponse, context: ExecutionContext
) -> None:
    """Called after every model call with the complete response.

    Args:
        request: The request that was sent.
        response: The text the model produced and its usage.
        context: The run's execution context.

    All implementations are called; return values are ignored.
    """


@hookspec
def gent_model_call_failed(
    request: ModelRequest, error: GentError, context: ExecutionContext
) -> None:
    """Called when a model call fails, instead of :func:`gent_after_model_call`.

    The back end failed (connection, authentication, an unknown model, a hung stream: a
    :class:`~gent_core.errors.ModelError`, or another error it raised); the run then stops
    with the stop reason ``model_error``.

    Args:
        request: The request that was sent.
        error: Why it failed.
        context: The run's execution context.

    All implementations are called; return values are ignored.
    """


@hookspec(firstresult=True)
def gent_before_tool_call(
    call: ToolCall, tool: Tool | None, context: ExecutionContext
) -> ToolCallDecision | None:
    """Called before each tool call runs; may allow, deny or replace it.

    Args:
        call: The call as the model wrote it.
        tool: The tool it names, or ``None`` when no such tool exists.
        context: The run's execution context.

    Returns:
        A :class:`~gent_core._plugins.decisions.ToolCallDecision`, or ``None`` to have no say.
        The first non-``None`` result wins (``firstresult``): a denial becomes an error result
        the model reads; a replacement call runs instead of ``call``.
    """


@hookspec(firstresult=True)
def gent_after_tool_call(
    call: ToolCall, result: ToolResult, context: ExecutionContext
) -> ToolResult | None:
    """Called after each tool call with its result; may replace the result.

    Args:
        call: The call that ran.
        result: Its result (successful or not).
        context: The run's execution context.

    Returns:
        A replacement :class:`~gent_core.tools.ToolResult`, or ``None`` to keep ``result``.
        The first non-``None`` result wins (``firstresult``).
    """


@hookspec
def gent_transform_observation(result: ToolChainResult, context: ExecutionContext) -> None:
    """Called with each observation before it is sent to the model; may modify it in place.

    Args:
        result: The tool chain's result (its ``text`` and ``media`` are what the model sees).
        context: The run's execution context.

    All implementations are called; return values are ignored.
    """


@hookspec
def gent_transform_messages(messages: list[Message], context: ExecutionContext) -> None:
    """Called with the conversation before each model call; may modify the list in place.

    This is where conversions such as the natural tool-use transformation plug in.

    Args:
        messages: The messages about to be sent, system message first.
        context: The run's execution context.

    All implementations are called; return values are ignored.
    """

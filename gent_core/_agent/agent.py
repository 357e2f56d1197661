"""The :class:`Agent`: a model, a format, a tool chain and a termination, run as a ReAct loop."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core._agent.clipboard import clipboard_from_records
from gent_core._agent.hooks import scoped_hooks
from gent_core._agent.run import AgentRun
from gent_core._agent.structure import THINKING_GUIDANCE, AgentStructure, thinking_section
from gent_core._agent.toolset_session import ToolsetSession
from gent_core._config.approval import ApprovalPolicy
from gent_core._config.building import agent_arguments, resolve_parts
from gent_core._config.prompt import PromptParts
from gent_core._plugins.manager import GentPluginManager
from gent_core._transcript.lines import Transcript
from gent_core._transcript.writer import open_run_transcript
from gent_core.context import Cancellation, ExecutionContext, Limits
from gent_core.errors import GentError, Location, ModelError, describe_error
from gent_core.events import AgentEvent, ModelLoaded, ModelLoading, RunFinished, RunStarted
from gent_core.formats import TextFormat
from gent_core.messages import Message
from gent_core.model import Model, OutputStructure
from gent_core.records import RunResult, StepRecord
from gent_core.sections import Section
from gent_core.termination import Termination
from gent_core.toolchain import ToolChain
from gent_core.tools.base import Tool
from gent_core.toolsets import Toolset

if TYPE_CHECKING:
    from gent_core._config import LoadedConfig
    from gent_core._config.arguments import PartSpec
    from gent_core._plugins.registry import Registry

__all__ = ["THINKING_GUIDANCE", "Agent"]


def _ignore(event: AgentEvent) -> None:
    del event


def _check_run_arguments(
    task: object, on_event: object, transcript: object, history: object
) -> None:
    """Refuse arguments of :meth:`Agent.run` that no run could use, naming the argument:
    what was given and what is accepted.

    Raises:
        TypeError: An argument of the wrong type.
    """
    if not isinstance(task, str):
        raise TypeError(f"Agent.run: task must be a string (str), got {type(task).__name__}")
    if on_event is not None and not callable(on_event):
        raise TypeError(
            "Agent.run: on_event must be a function taking each event, or None; got "
            f"{type(on_event).__name__}"
        )
    if transcript is not None and not isinstance(transcript, str | os.PathLike):
        raise TypeError(
            "Agent.run: transcript must be a file path (str or pathlib.Path) or None; got "
            f"{type(transcript).__name__}"
        )
    if isinstance(history, str | bytes) or not isinstance(history, Sequence):
        raise TypeError(
            f"Agent.run: history must be a list of gent_core.Message, got {type(history).__name__}"
        )
    for index, message in enumerate(history):
        if not isinstance(message, Message):
            raise TypeError(
                f"Agent.run: history[{index}] must be a gent_core.Message (Message.user(...), "
                f"Message.assistant(...)), got {type(message).__name__}"
            )


class Agent:
    """A ReAct-style agent over text.

    ::

        from gent_core import Agent, tool

        @tool
        def word_count(text: str) -> int:
            '''Count the words of a text.'''
            return len(text.split())

        agent = Agent("llamacpp", format="xml", toolchain="json", tools=["calculator", word_count])
        print(agent.run_sync("How many words are in 'to be or not to be'?").answer)

    The model, the format, the tool chain and the termination are each a plugin name
    (``"openai"``), a name with options (``("openai", {"model": "gpt-4o-mini"})`` or
    ``{"openai": {"model": "gpt-4o-mini"}}``), or an object (``XMLFormat()``); names are
    looked up in the plugin registry with the errors of a config file (an unknown name lists
    the installed ones and the closest; wrong options say what is accepted), raised as a
    :class:`~gent_core.errors.ConfigError` keyed by the argument. A part left out is the
    built-in agent's (``gent run``'s without a config: ``llamacpp``, ``xml``, ``json``,
    ``text``); the tool chain only when there are tools. Names are looked up among the
    installed plugins (the process-wide plugin manager, which
    :meth:`PluginSandbox.as_process_manager <gent_core.testing.PluginSandbox.as_process_manager>`
    replaces in tests), whatever ``plugin_manager`` is given for the hooks.

    Args:
        model: The model back end (the built-in agent's ``llamacpp`` when left out).
        format: The text format (``xml``, ``markdown``...; ``xml`` when left out).
        toolchain: The tool chain (``json``, ``yaml``...); when left out, ``json`` if there
            are tools, else none.
        termination: How the final answer is read (plain text, ``text``, by default).
        tools: Tools for the tool chain: names of installed tools (with options as
            ``(name, {options})``), any entry of a config file's ``tools`` list (toolsets
            ``{mcp: {...}}`` included), :class:`~gent_core.tools.base.Tool` objects and
            functions (made tools by :func:`~gent_core.tools.tool`). Named tools come first
            in the prompt, then the objects.
        thinking: Whether to ask for a ``thinking`` section before acting.
        limits: Steps, timeouts and error limits.
        working_directory: Where tools work; the current directory by default.
        plugin_manager: Whose lifecycle hooks fire during runs (``None``: a private manager
            with no plugins, so only the approval policy's and the middleware's hooks).
        prompt: Overrides for the system prompt's parts.
        approval: A tool approval policy, registered for the duration of each run.
        toolsets: Sources of more tools (MCP servers...), opened by :meth:`open` before the
            first run and closed by :meth:`aclose`.
        allow_writes: Whether toolset tools that change files or other state
            (:attr:`Tool.writes <gent_core.tools.Tool.writes>`) are offered. When false they
            are left out as the toolsets open, with a warning naming them, and listed in
            :attr:`withheld_tools` (an agent from a config takes its ``allow_writes``).
        middleware: Plugin objects with lifecycle hook implementations, registered for the
            runs of this agent only (other agents sharing the plugin manager never see them).
        max_tokens: Upper bound of tokens per model call.
        temperature: Sampling temperature, or ``None`` for the back end's default.
        redact: Masks secrets in the free text written to a transcript (every string value
            but the task and the answer; see :func:`~gent_core.records.redact_record`).
        config_summary: A JSON-ready (redacted) description of the configuration, written to
            the transcript header.
        config_file: The config file the agent was built from, written to the transcript
            header too: resuming reloads it when ``config_summary`` had secrets masked.
    """

    def __init__(
        self,
        model: Model | PartSpec | None = None,
        format: TextFormat | PartSpec | None = None,
        toolchain: ToolChain | PartSpec | None = None,
        termination: Termination | PartSpec | None = None,
        *,
        tools: Sequence[Tool | PartSpec | Callable[..., Any]] = (),
        thinking: bool = True,
        limits: Limits | None = None,
        working_directory: Path | str | None = None,
        plugin_manager: GentPluginManager | None = None,
        prompt: PromptParts | None = None,
        approval: ApprovalPolicy | None = None,
        toolsets: Sequence[Toolset] = (),
        allow_writes: bool = True,
        middleware: Sequence[object] = (),
        max_tokens: int | None = None,
        temperature: float | None = None,
        redact: Callable[[str], str] | None = None,
        config_summary: dict[str, Any] | None = None,
        config_file: Path | str | None = None,
    ) -> None:
        parts = resolve_parts(model, format, toolchain, termination, tools, allow_writes)
        self.model: Model = parts.model
        self.format: TextFormat = parts.format
        self.toolchain: ToolChain | None = parts.toolchain
        for tool in parts.tools:
            assert self.toolchain is not None  # _Parts makes one when there are tools
            self.toolchain.add_tool(tool)
        self.termination: Termination = parts.termination
        self.thinking: Section | None = thinking_section(thinking)
        self.limits = limits or Limits()
        self.working_directory = Path(working_directory) if working_directory else Path.cwd()
        self.plugin_manager = plugin_manager
        self.prompt = prompt or PromptParts()
        self.approval = approval
        self.toolsets = [*parts.toolsets, *toolsets]
        self.allow_writes = allow_writes
        self.middleware = list(middleware)
        self.toolset_origins: dict[int, Location] = dict(parts.toolset_origins)
        self._session = ToolsetSession()
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.redact = redact
        self.config_summary = config_summary
        self.config_file = Path(config_file).resolve() if config_file else None
        self._loaded = False
        self._active: set[Cancellation] = set()

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_config(
        cls,
        loaded: LoadedConfig,
        *,
        registry: Registry | None = None,
        plugin_manager: GentPluginManager | None = None,
        ask_callback: Callable[..., bool] | None = None,
        tools: Sequence[Tool | Callable[..., Any]] = (),
    ) -> Agent:
        """Build an agent from a loaded config, looking components up by plugin name.

        Args:
            loaded: The config (see :func:`gent_core._config.load_config`).
            registry: Where components are looked up; built from ``plugin_manager`` (or the
                process-wide plugin manager) by default.
            plugin_manager: Whose lifecycle hooks fire during runs.
            ask_callback: Asked about calls the approval policy marks ``ask``.
            tools: Tools defined in code (:class:`~gent_core.tools.base.Tool` objects or
                functions, made tools by :func:`~gent_core.tools.tool`), offered after the
                config's; a name the config's tools already use is a ``ConfigError``.

        Raises:
            ConfigError: Naming the file, line and key of a bad setting.
        """
        arguments = agent_arguments(
            loaded,
            registry=registry,
            plugin_manager=plugin_manager,
            ask_callback=ask_callback,
            tools=tools,
        )
        agent = cls(
            arguments.model,
            arguments.format,
            arguments.toolchain,
            arguments.termination,
            toolsets=arguments.toolsets,
            allow_writes=arguments.allow_writes,
            middleware=arguments.middleware,
            thinking=arguments.thinking,
            limits=arguments.limits,
            working_directory=arguments.working_directory,
            plugin_manager=arguments.plugin_manager,
            prompt=arguments.prompt,
            approval=arguments.approval,
            redact=arguments.redact,
            config_summary=arguments.config_summary,
            config_file=arguments.config_file,
        )
        agent.toolset_origins = arguments.toolset_origins
        return agent

    # ------------------------------------------------------------------ structure

    def _structure(self) -> AgentStructure:
        return AgentStructure(self.format, self.thinking, self.toolchain, self.termination)

    def sections(self) -> list[Section]:
        """The sections the model is asked to write, in prompt order."""
        return self._structure().sections()

    def closing_sections(self) -> list[str]:
        """Sections whose end ends a step: the action (if any) and the answer."""
        return self._structure().closing_sections()

    def expected_sections_text(self) -> str:
        """``"action or answer"``: what every step must contain."""
        return self._structure().expected_sections_text()

    def structure(self) -> OutputStructure:
        """The expected output structure, for back ends that constrain generation."""
        return self._structure().output_structure(self.limits.max_calls_per_action)

    def system_prompt(self) -> str:
        """The exact system prompt."""
        return self._structure().system_prompt(self.prompt)

    # ------------------------------------------------------------------ running

    async def open(self) -> None:
        """Open the toolsets once and add their tools to the tool chain (called by
        :meth:`load`; call it directly to see the tools without loading the model).

        A tool whose name is already taken is added as ``<toolset>:<tool>``. A tool that writes
        is left out (with a warning) unless :attr:`allow_writes`. When a toolset fails to
        open, the ones already opened are closed again (see
        :class:`~gent_core._agent.toolset_session.ToolsetSession`).

        Raises:
            ToolsetError: Naming the toolset, where it was configured, and why it failed.
        """
        await self._session.open(
            self.toolsets,
            self.toolchain,
            self.working_directory,
            allow_writes=self.allow_writes,
            origins=self.toolset_origins,
        )

    @property
    def withheld_tools(self) -> list[str]:
        """The toolset tools left out because they write (``<toolset>:<tool>``), since the
        last :meth:`open`.
        """
        return self._session.withheld

    @property
    def toolset_tools(self) -> dict[str, Toolset]:
        """The tools added by the open toolsets, by name, with the toolset of each."""
        return self._session.tools

    async def aclose(self) -> None:
        """Close the toolsets (stopping their servers) and release the model.

        Safe to call more than once, and after a failed :meth:`open` or :meth:`load`.
        """
        try:
            await self._session.aclose()
        finally:
            if self._loaded:
                self._loaded = False
                await self.model.aclose()

    async def __aenter__(self) -> Agent:
        await self.open()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def load(self, on_event: Callable[[AgentEvent], None] = _ignore) -> float:
        """Open the toolsets and load the model once (called by :meth:`run`; call it early
        to show progress).

        Returns:
            Seconds spent loading the model now (``0.0`` when it was already loaded).

        Raises:
            ToolsetError: When a toolset cannot be opened.
            GentError: When the model cannot be loaded: the back end's own error (a missing
                model file, a server that is not there...), or any other exception it raised,
                as a :class:`~gent_core.errors.ModelError` naming the model and the exception.
        """
        await self.open()
        if self._loaded:
            return 0.0
        on_event(ModelLoading(self.model.describe()))
        started = time.perf_counter()
        try:
            await self.model.load()
        except GentError:
            raise
        except Exception as error:  # a back end's bug or a library's error: said, not raised
            raise ModelError(
                f"the model {self.model.describe()} failed to load: {describe_error(error)}"
            ) from error
        self._loaded = True
        seconds = time.perf_counter() - started
        on_event(ModelLoaded(self.model.describe(), seconds))
        return seconds

    async def run(
        self,
        task: str,
        *,
        on_event: Callable[[AgentEvent], None] | None = None,
        transcript: Path | str | None = None,
        history: Sequence[Message] = (),
    ) -> RunResult:
        """Run the agent on ``task`` until it answers or hits a limit.

        Args:
            task: What the user asks.
            on_event: Receives every event as it happens.
            transcript: A JSONL file to append the run to, step by step.
            history: Earlier messages of the conversation (no system message), placed
                between the system prompt and the task. Middleware may rewrite them before
                each model call (e.g. ``natural`` turns native tool calls into text).

        Raises:
            TypeError: An argument of the wrong type (a task that is not a ``str``, a
                history item that is not a :class:`~gent_core.messages.Message`...), naming
                it; nothing runs.
        """
        _check_run_arguments(task, on_event, transcript, history)
        return await self._run(
            task,
            on_event if on_event is not None else _ignore,
            transcript,
            resume=False,
            history=history,
        )

    async def resume(
        self,
        transcript: Path | str | Transcript,
        *,
        on_event: Callable[[AgentEvent], None] | None = None,
    ) -> RunResult:
        """Continue an interrupted run from its transcript: a file (appended to), or a
        :class:`~gent_core._transcript.lines.Transcript` already read (from the history
        database: nothing is appended to it).

        Raises:
            GentError: When the transcript is unreadable or the run already finished.
        """
        return await self._run(
            None, on_event if on_event is not None else _ignore, transcript, resume=True
        )

    def cancel(self, reason: str = "cancelled") -> None:
        """Cancel the runs in progress (from any thread): each stops before its next step,
        running tools are told through ``context.cancellation``, and the result's stop reason
        is ``"cancelled"``. Later runs are not affected.
        """
        for cancellation in list(self._active):
            cancellation.cancel(reason)

    def run_sync(self, task: str, **options: Any) -> RunResult:
        """Run :meth:`run` in a new event loop (for scripts and notebooks).

        Raises:
            TypeError: As :meth:`run`, before an event loop is started.
        """
        _check_run_arguments(
            task, options.get("on_event"), options.get("transcript"), options.get("history", ())
        )
        return asyncio.run(self.run(task, **options))

    def run_hooks(self, *observers: object) -> GentPluginManager | None:
        """The plugin manager whose hooks fire in one run: the agent's, plus the approval
        policy, the middleware and the run's own ``observers`` (its transcript's writer) in a
        manager of the run's own, so that concurrent runs of other agents sharing the plugin
        manager never see them. Code that runs this agent's tools outside a run (``gent
        mcp-serve``) puts it in the execution context.
        """
        return scoped_hooks(self.plugin_manager, [*self.middleware, *observers], self.approval)

    def _context(self, cancellation: Cancellation) -> ExecutionContext:
        """A new run's execution context (its hooks are set once the run starts)."""
        context = ExecutionContext(
            working_directory=self.working_directory,
            limits=self.limits,
            cancellation=cancellation,
            plugin_manager=self.plugin_manager,
        )
        if self.redact is not None:
            context.redact = self.redact
        return context

    async def _run(
        self,
        task: str | None,
        emit: Callable[[AgentEvent], None],
        transcript_path: Path | str | Transcript | None,
        *,
        resume: bool,
        history: Sequence[Message] = (),
    ) -> RunResult:
        writer, interrupted = open_run_transcript(transcript_path, self, resume=resume)
        cancellation = Cancellation()
        context = self._context(cancellation)
        try:
            steps: list[StepRecord] = []
            if interrupted is not None:
                task, steps = interrupted
                if steps:
                    context.clipboard = clipboard_from_records(steps[-1].clipboard)
            assert task is not None
            context.plugin_manager = self.run_hooks(*([writer] if writer else []))
            self._active.add(cancellation)
            emit(RunStarted(task, len(steps), self.termination.name))
            load_seconds = await self.load(emit)
            run = AgentRun(self, task, context, emit, steps, list(history))
            run.stats.load_seconds = load_seconds
            result = await run.run()
            emit(RunFinished(result))
            return result
        finally:
            self._active.discard(cancellation)
            if writer is not None:
                writer.close()

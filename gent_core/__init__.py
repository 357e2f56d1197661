"""gent: LLM agents that call tools through text.

The core defines the contracts (formats, tool chains, terminations, tools, models), the plugin
system and the agent loop. Everything is importable from here; names load lazily so that
``import gent_core`` stays fast and imports no plugin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core._lazy import export_names, load_export

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # the agent
    "Agent": "gent_core._agent",
    "ApprovalPolicy": "gent_core._config.approval",
    # plugin system
    "hookimpl": "gent_core.hookspecs",
    "hookspec": "gent_core.hookspecs",
    "GentPluginManager": "gent_core._plugins.manager",
    "PluginInfo": "gent_core._plugins.manager",
    "InstalledPlugin": "gent_core._plugins.manager",
    "installed_plugins": "gent_core._plugins.manager",
    "build_plugin_manager": "gent_core._plugins.manager",
    "get_plugin_manager": "gent_core._plugins.manager",
    "Registry": "gent_core._plugins.registry",
    "ComponentKind": "gent_core._plugins.kinds",
    "PluginSelection": "gent_core._plugins.manager",
    "Command": "gent_core._plugins.commands",
    "ToolCallDecision": "gent_core._plugins.decisions",
    # messages and sections
    "ContentPart": "gent_core.messages",
    "ImagePart": "gent_core.messages",
    "Message": "gent_core.messages",
    "MessageToolCall": "gent_core.messages",
    "TextPart": "gent_core.messages",
    "FormattedSection": "gent_core.sections",
    "ParseResult": "gent_core.sections",
    "ParsedSection": "gent_core.sections",
    "Section": "gent_core.sections",
    "SectionEnded": "gent_core.sections",
    "SectionEvent": "gent_core.sections",
    "SectionStarted": "gent_core.sections",
    "TextDelta": "gent_core.sections",
    "TextSection": "gent_core.sections",
    # contracts
    "IncrementalParser": "gent_core.formats",
    "TextFormat": "gent_core.formats",
    "Tool": "gent_core.tools.base",
    "ToolResult": "gent_core.tools.result",
    "Toolset": "gent_core.toolsets",
    "tool": "gent_core.tools._function",
    "BaseTool": "gent_core.tools._basetool",
    "DeclaredTool": "gent_core.tools._declared",
    "Toolbox": "gent_core.tools._toolbox",
    "ToolCall": "gent_core.toolchain",
    "ToolChain": "gent_core.toolchain",
    "ToolChainResult": "gent_core.toolchain",
    "Termination": "gent_core.termination",
    "Model": "gent_core.model",
    "ModelChunk": "gent_core.model",
    "ModelIdentity": "gent_core.model",
    "ModelRequest": "gent_core.model",
    "ModelResponse": "gent_core.model",
    "OutputStructure": "gent_core.model",
    "Usage": "gent_core.model",
    "Cancellation": "gent_core.context",
    "Clipboard": "gent_core.context",
    "ExecutionContext": "gent_core.context",
    "Limits": "gent_core.context",
    # what a run emits while it runs (the on_event callback and Agent.events)
    "AgentEvent": "gent_core.events",
    "AnswerReady": "gent_core.events",
    "FeedbackSent": "gent_core.events",
    "ModelLoaded": "gent_core.events",
    "ModelLoading": "gent_core.events",
    "OutputEvent": "gent_core.events",
    "RunFinished": "gent_core.events",
    "RunStarted": "gent_core.events",
    "StepStarted": "gent_core.events",
    "ToolCallFinished": "gent_core.events",
    "ToolCallsStarted": "gent_core.events",
    # what a run produced (the run hooks pass them)
    "RunResult": "gent_core.records",
    "RunStats": "gent_core.records",
    "StepRecord": "gent_core.records",
    "ToolCallRecord": "gent_core.records",
    # built-in terminations
    "TextTermination": "gent_core._terminations.text",
    "JSONTermination": "gent_core._terminations.typed",
    # configuration
    "AgentConfig": "gent_core._config",
    "LoadedConfig": "gent_core._config",
    "apply_overrides": "gent_core._config",
    "build_components": "gent_core._config",
    "default_config": "gent_core._config",
    "load_config": "gent_core._config",
    "parse_config": "gent_core._config",
    # running calls outside an agent, and writing their results as an observation
    "execute_action": "gent_core._execution",
    "execute_calls": "gent_core._execution",
    "section_name_for": "gent_core._observation",
    "truncate_output": "gent_core._observation",
    # lazy package namespaces, as this one is (bound above: this module uses them itself)
    "export_names": "gent_core._lazy",
    "load_export": "gent_core._lazy",
    # errors
    "GentError": "gent_core.errors",
    "ConfigError": "gent_core.errors",
    "Location": "gent_core.errors",
}

if TYPE_CHECKING:
    from gent_core._agent import Agent
    from gent_core._config import (
        AgentConfig,
        LoadedConfig,
        apply_overrides,
        build_components,
        default_config,
        load_config,
        parse_config,
    )
    from gent_core._config.approval import ApprovalPolicy
    from gent_core._execution import execute_action, execute_calls
    from gent_core._observation import section_name_for, truncate_output
    from gent_core._plugins.commands import Command
    from gent_core._plugins.decisions import ToolCallDecision
    from gent_core._plugins.kinds import ComponentKind
    from gent_core._plugins.manager import (
        GentPluginManager,
        InstalledPlugin,
        PluginInfo,
        PluginSelection,
        build_plugin_manager,
        get_plugin_manager,
        installed_plugins,
    )
    from gent_core._plugins.registry import Registry
    from gent_core._terminations.text import TextTermination
    from gent_core._terminations.typed import JSONTermination
    from gent_core.context import Cancellation, Clipboard, ExecutionContext, Limits
    from gent_core.errors import ConfigError, GentError, Location
    from gent_core.events import (
        AgentEvent,
        AnswerReady,
        FeedbackSent,
        ModelLoaded,
        ModelLoading,
        OutputEvent,
        RunFinished,
        RunStarted,
        StepStarted,
        ToolCallFinished,
        ToolCallsStarted,
    )
    from gent_core.formats import IncrementalParser, TextFormat
    from gent_core.hookspecs import hookimpl, hookspec
    from gent_core.messages import ContentPart, ImagePart, Message, MessageToolCall, TextPart
    from gent_core.model import (
        Model,
        ModelChunk,
        ModelIdentity,
        ModelRequest,
        ModelResponse,
        OutputStructure,
        Usage,
    )
    from gent_core.records import RunResult, RunStats, StepRecord, ToolCallRecord
    from gent_core.sections import (
        FormattedSection,
        ParsedSection,
        ParseResult,
        Section,
        SectionEnded,
        SectionEvent,
        SectionStarted,
        TextDelta,
        TextSection,
    )
    from gent_core.termination import Termination
    from gent_core.toolchain import ToolCall, ToolChain, ToolChainResult
    from gent_core.tools._basetool import BaseTool
    from gent_core.tools._declared import DeclaredTool
    from gent_core.tools._function import tool
    from gent_core.tools._toolbox import Toolbox
    from gent_core.tools.base import Tool
    from gent_core.tools.result import ToolResult
    from gent_core.toolsets import Toolset

__all__ = [
    "__version__",
    "Agent",
    "ApprovalPolicy",
    "Command",
    "ComponentKind",
    "ConfigError",
    "PluginSelection",
    "installed_plugins",
    "parse_config",
    "AgentConfig",
    "BaseTool",
    "DeclaredTool",
    "Cancellation",
    "Clipboard",
    "ContentPart",
    "ExecutionContext",
    "FormattedSection",
    "GentError",
    "GentPluginManager",
    "ImagePart",
    "IncrementalParser",
    "JSONTermination",
    "Limits",
    "Location",
    "Message",
    "MessageToolCall",
    "Model",
    "ModelChunk",
    "ModelIdentity",
    "ModelRequest",
    "ModelResponse",
    "OutputStructure",
    "ParseResult",
    "ParsedSection",
    "InstalledPlugin",
    "PluginInfo",
    "Registry",
    "RunResult",
    "RunStats",
    "Section",
    "SectionEnded",
    "SectionEvent",
    "SectionStarted",
    "StepRecord",
    "Termination",
    "TextDelta",
    "TextFormat",
    "TextPart",
    "TextSection",
    "TextTermination",
    "Tool",
    "ToolCall",
    "ToolCallDecision",
    "ToolCallRecord",
    "ToolChain",
    "ToolChainResult",
    "ToolResult",
    "Toolbox",
    "Toolset",
    "Usage",
    "build_plugin_manager",
    "get_plugin_manager",
    "hookimpl",
    "hookspec",
    "load_config",
    "LoadedConfig",
    "apply_overrides",
    "build_components",
    "default_config",
    "tool",
    "AgentEvent",
    "AnswerReady",
    "FeedbackSent",
    "ModelLoaded",
    "ModelLoading",
    "OutputEvent",
    "RunFinished",
    "RunStarted",
    "StepStarted",
    "ToolCallFinished",
    "ToolCallsStarted",
    "execute_action",
    "execute_calls",
    "section_name_for",
    "truncate_output",
    # lazy package namespaces, as this one is (a plugin's own namespace uses them too)
    "export_names",
    "load_export",
]


def __getattr__(name: str) -> Any:
    """Import exported names on first use (PEP 562)."""
    return load_export(__name__, _EXPORTS, globals(), name)


def __dir__() -> list[str]:
    return export_names(_EXPORTS, globals())

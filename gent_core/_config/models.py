"""The pydantic models of an agent configuration (what ``agent.yaml`` holds).

Every model forbids unknown keys. A component (model, format, tool chain, termination, tool)
is written either as its plugin name (``xml``) or as a mapping holding its name and its
options (``{name: json, schema: "pkg.models:Answer"}``); see :class:`ComponentSpec`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    PrivateAttr,
    Tag,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from gent_core._config.secrets import Redactor, redact_value
from gent_core._limit_rules import COUNT, SECONDS, TRIES
from gent_core._observation import resolve_real
from gent_core.context import Limits

_LIMITS = Limits()
"""The run's default bounds: the single source of every default below (``limits:``,
``timeouts:``, ``max_steps``); a config value overrides one, and :meth:`AgentConfig.limits_object`
hands the result back as a :class:`~gent_core.context.Limits`."""

__all__ = [
    "AgentConfig",
    "ApprovalConfig",
    "ComponentSpec",
    "DeclareSpec",
    "LimitsConfig",
    "PromptConfig",
    "TimeoutsConfig",
    "ToolEntry",
    "ToolSpec",
    "ToolsetSpec",
]


def _no_bool(value: Any) -> Any:
    """Refuse ``true``/``false`` where a number is expected (pydantic would read 1/0)."""
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid number")
    return value


_Count = Annotated[int, Field(**COUNT.bounds()), BeforeValidator(_no_bool)]
_Tries = Annotated[int, Field(**TRIES.bounds()), BeforeValidator(_no_bool)]
_Seconds = Annotated[float, Field(**SECONDS.bounds()), BeforeValidator(_no_bool)]
"""The bounds of ``max_steps``, ``timeouts:`` and ``limits:``: the rules
:class:`~gent_core.context.Limits` checks (:mod:`gent_core._limit_rules`), so a config and
``Limits(...)`` accept the same values."""


ACCEPTED_SPEC = "a plugin name or a mapping {name: ..., <options>}"
"""How a component is written, for error messages."""


class _Redacting(BaseModel):
    """Masks the configuration's secret values in ``repr()`` and ``str()``."""

    _secrets: frozenset[str] = PrivateAttr(default=frozenset())

    def __repr__(self) -> str:
        return Redactor(self._secrets).redact(super().__repr__())

    def __str__(self) -> str:
        return Redactor(self._secrets).redact(super().__str__())


class ComponentSpec(_Redacting):
    """Which plugin component to use, and its options.

    Accepted forms (``name`` may be qualified as ``plugin:component``)::

        format: xml
        termination: {name: json, schema: "pkg.models:Answer"}
        model: {name: openai, options: {model: gpt-4o-mini}}   # explicit options mapping

    In the short mapping form every key except ``name`` is an option. The explicit form
    (only ``name`` and an ``options`` mapping) is for components that take an option called
    ``name`` or ``options``.

    Attributes:
        name: The component name.
        options: Keyword arguments for the component's factory, validated against the
            component's own options (see :func:`gent_core._config.validate_options`).
    """

    model_config = ConfigDict(extra="forbid", json_schema_extra={"x-accepted": ACCEPTED_SPEC})

    name: str = Field(min_length=1)
    options: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _accept_short_forms(cls, data: Any) -> Any:
        if isinstance(data, ComponentSpec):
            return data
        if isinstance(data, str):
            return {"name": data.strip()}
        if not isinstance(data, Mapping):
            raise ValueError(f"expected {ACCEPTED_SPEC}")
        if "name" not in data:
            keys = ", ".join(str(key) for key in data) or "none"
            raise ValueError(
                f"a component mapping needs a 'name' key (the plugin name); its keys are: {keys}"
            )
        options = data.get("options")
        if set(data) <= {"name", "options"} and isinstance(options, Mapping):
            return {"name": data["name"], "options": dict(options)}
        return {
            "name": data["name"],
            "options": {key: value for key, value in data.items() if key != "name"},
        }

    @field_validator("name")
    @classmethod
    def _strip_name(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("expected a plugin name (a non-empty string)")
        return value

    @model_serializer(mode="plain")
    def _short_form(self) -> str | dict[str, Any]:
        """Serialize as written: the name alone, or ``{name: ..., <options>}``."""
        if not self.options:
            return self.name
        options = self.options
        if "name" in options or (
            set(options) == {"options"} and isinstance(options["options"], Mapping)
        ):
            return {"name": self.name, "options": dict(options)}
        return {"name": self.name, **options}

    def __repr_args__(self) -> Any:
        yield "name", self.name
        yield "options", redact_value(self.options, Redactor(self._secrets))


class ToolsetSpec(_Redacting):
    """A toolset (a source of several tools, such as an MCP server) in the ``tools`` list.

    Written as a mapping with one key, the toolset's component name, whose value holds its
    options::

        tools:
          - calculator
          - mcp: {name: git, command: [python, -m, mcp_server_git]}

    Attributes:
        toolset: The toolset's component name (``mcp``), possibly ``plugin:component``.
        options: Keyword arguments for the toolset's factory.
    """

    model_config = ConfigDict(extra="forbid")

    toolset: str = Field(min_length=1)
    options: dict[str, Any] = Field(default_factory=dict)

    @model_serializer(mode="plain")
    def _short_form(self) -> dict[str, Any]:
        """Serialize as written: ``{<toolset>: {<options>}}``."""
        return {self.toolset: dict(self.options)}

    def __repr_args__(self) -> Any:
        yield "toolset", self.toolset
        yield "options", redact_value(self.options, Redactor(self._secrets))


DECLARE_KEY = "declare"
"""The key of a ``tools`` entry declaring tools from a schema (no toolset may be called so)."""


class DeclareSpec(_Redacting):
    """Tools declared from a schema in the ``tools`` list: one written out, or a file.

    A file holds declarations in the shapes :mod:`gent_core.tools._declarations` accepts::

        tools:
          - declare:
              name: math.factorial
              description: Calculate the factorial of a number.
              parameters: {type: object, properties: {number: {type: integer}}}
              stop: true
          - declare: {file: tools.json, result: {status: ok}}

    Attributes:
        name: The tool's name (with ``parameters`` and ``description``).
        description: What it does, for the model.
        parameters: The JSON Schema of its arguments.
        file: A JSON or YAML file of declarations, relative to the config file (instead of
            ``name``).
        result: What each call returns (``"OK"`` when not given).
        stop: Record the calls and stop the run after the step that made them (stop reason
            ``tool_stop``) instead of going on with the stub result.
    """

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    description: str = ""
    parameters: dict[str, Any] | None = None
    file: Path | None = None
    result: Any = None
    stop: bool = False

    @model_validator(mode="before")
    @classmethod
    def _unwrap(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and list(data) == [DECLARE_KEY]:
            data = data[DECLARE_KEY]
            if not isinstance(data, Mapping):
                raise ValueError(
                    "'declare' needs a mapping: {name, description, parameters} or "
                    f"{{file: ...}}, got {type(data).__name__}"
                )
        return data

    @model_validator(mode="after")
    def _one_source(self, info: ValidationInfo) -> DeclareSpec:
        if (self.name is None) == (self.file is None):
            raise ValueError(
                "a declaration gives either a tool ({name, description, parameters}) or a file "
                "of them ({file: tools.json}), not "
                + ("both" if self.name is not None else "neither")
            )
        if self.file is not None:
            if self.parameters is not None or self.description:
                raise ValueError(
                    "a declaration with a 'file' takes no 'description' or 'parameters' "
                    "(the file holds them)"
                )
            base = info.context.get("base_dir") if isinstance(info.context, Mapping) else None
            file = _expand_home(self.file)
            if base is not None and not file.is_absolute():
                file = Path(base) / file
            self.file = file
        return self

    @model_serializer(mode="plain")
    def _short_form(self) -> dict[str, Any]:
        """Serialize as written: ``{declare: {<keys given>}}``."""
        given = {
            key: str(value) if isinstance(value, Path) else value
            for key, value in (
                ("name", self.name),
                ("description", self.description),
                ("parameters", self.parameters),
                ("file", self.file),
                ("result", self.result),
                ("stop", self.stop),
            )
            if value not in (None, "", False)
        }
        return {"declare": given}


ACCEPTED_TOOL = (
    "a tool name, a mapping {name: ..., <options>}, tools declared from a schema "
    "{declare: {...}}, or a toolset written {<toolset>: {<options>}} (e.g. {mcp: {name: git, "
    "command: [...]}})"
)
"""How a ``tools`` entry is written, for error messages."""


def _tool_entry(data: Any) -> Any:
    """Rewrite a toolset entry ``{<toolset>: {<options>}}`` as ``{toolset:, options:}``;
    a declaration ``{declare: {...}}`` becomes its :class:`DeclareSpec` data.
    """
    if isinstance(data, ComponentSpec | ToolsetSpec | DeclareSpec):
        return data
    if isinstance(data, Mapping) and list(data) == [DECLARE_KEY]:
        return data  # DeclareSpec reads it
    if not isinstance(data, str | Mapping):
        raise ValueError(f"expected {ACCEPTED_TOOL}")
    if isinstance(data, str) or "name" in data:
        return data
    if len(data) != 1:
        keys = ", ".join(str(key) for key in data) or "none"
        raise ValueError(
            f"expected {ACCEPTED_TOOL}; a tool mapping needs a 'name' key and a toolset mapping "
            f"has exactly one key, this one has: {keys}"
        )
    ((key, value),) = data.items()
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise ValueError(
            f"the toolset {key!r} needs a mapping of options, got {type(value).__name__}"
        )
    return {"toolset": str(key), "options": dict(value)}


def _tool_kind(data: Any) -> str:
    if isinstance(data, DeclareSpec) or (isinstance(data, Mapping) and list(data) == [DECLARE_KEY]):
        return "declare"
    if isinstance(data, ToolsetSpec) or (isinstance(data, Mapping) and "toolset" in data):
        return "toolset"
    return "tool"


ToolEntry = Annotated[
    Annotated[ComponentSpec, Tag("tool")]
    | Annotated[ToolsetSpec, Tag("toolset")]
    | Annotated[DeclareSpec, Tag("declare")],
    Discriminator(_tool_kind),
    BeforeValidator(_tool_entry),
]
"""One entry of ``tools``: a tool, or a toolset."""

ToolSpec = ComponentSpec | ToolsetSpec | DeclareSpec
"""A validated entry of ``tools`` (what :data:`ToolEntry` gives): a tool by name with its
options, a toolset, or declared tools."""


def _component(name: str) -> Any:
    return Field(default_factory=lambda: ComponentSpec(name=name))


class PromptConfig(BaseModel):
    """Additions to (and overrides of) the default system prompt; all optional.

    Attributes:
        role: Replaces the default role/behaviour paragraph.
        instructions: Replaces the default "how to think and act" paragraph.
        rules: Extra rules appended to the default rules.
        append: Free text appended at the end of the system prompt.
    """

    model_config = ConfigDict(extra="forbid")

    role: str | None = None
    instructions: str | None = None
    rules: list[str] = Field(default_factory=list)
    append: str | None = None


class ApprovalConfig(BaseModel):
    """Which tools run without asking, never run, or need approval, by tool name.

    Patterns are shell-style (``fnmatch``: ``write_*``). Deny wins over ask, ask over allow;
    a name matching no pattern gets ``default``.

    Attributes:
        allow: Patterns of tools that run without asking.
        deny: Patterns of tools that never run.
        ask: Patterns of tools that run only when approved.
        default: The verdict for tools matching no pattern.
    """

    model_config = ConfigDict(extra="forbid")

    allow: list[str] = Field(default_factory=list)
    deny: list[str] = Field(default_factory=list)
    ask: list[str] = Field(default_factory=list)
    default: Literal["allow", "deny", "ask"] = "allow"


class TimeoutsConfig(BaseModel):
    """Timeouts, in seconds.

    Attributes:
        tool: Default seconds a tool call may take (a tool may set its own).
        model: Seconds one model call may take; ``None`` for no limit. An output still
            being written then is treated as cut off.
        model_idle: Seconds a model call may go without sending text (the first text
            included) before it is taken as hung and the run stops; ``None`` for no limit.
    """

    model_config = ConfigDict(extra="forbid")

    tool: _Seconds = _LIMITS.tool_timeout
    model: _Seconds | None = _LIMITS.model_timeout
    model_idle: _Seconds | None = _LIMITS.model_idle_timeout


class LimitsConfig(BaseModel):
    """Bounds of a run besides the number of steps.

    Attributes:
        max_consecutive_format_errors: Unparseable outputs in a row before the run stops.
        max_consecutive_tool_errors: Steps whose tool calls all failed, in a row, before the
            run stops.
        max_output_chars: Characters one model call may write; an output reaching it is
            stopped and treated as cut off.
        max_tool_output_chars: Formatted tool output beyond this is cut, with a note.
        max_recorded_output_chars: Characters of one tool output kept in the record
            (``--json``, the transcript); a longer one is recorded cut, saying so.
        max_calls_per_action: Tool calls one action may hold; more runs none of them. The
            grammar of a back end that constrains output allows this many.
        max_clipboard_chars: Characters of clipboard shown each step; older entries that no
            longer fit are removed.
        max_repairs: Tries the model gets at writing a failed call again (one that did not
            parse or validate) before the agent moves on; 0 for none.
        max_model_calls: Model calls allowed in one run, the repairs' included; ``None``
            for ``max_steps * (1 + max_repairs)``. The run stops when they are spent.
        max_repeated_failures: Times the model may make the same failing call (the same
            tool and arguments) in one run; the call that reaches it stops the run.
    """

    model_config = ConfigDict(extra="forbid")

    max_consecutive_format_errors: _Count = _LIMITS.max_consecutive_format_errors
    max_consecutive_tool_errors: _Count = _LIMITS.max_consecutive_tool_errors
    max_output_chars: _Count = _LIMITS.max_output_chars
    max_tool_output_chars: _Count = _LIMITS.max_tool_output_chars
    max_recorded_output_chars: _Count = _LIMITS.max_recorded_output_chars
    max_calls_per_action: _Count = _LIMITS.max_calls_per_action
    max_clipboard_chars: _Count = _LIMITS.max_clipboard_chars
    max_repairs: _Tries = _LIMITS.max_repairs
    max_model_calls: _Count | None = _LIMITS.max_model_calls
    max_repeated_failures: _Count = _LIMITS.max_repeated_failures


def _expand_home(path: Path) -> Path:
    """``path`` with a leading ``~`` or ``~user`` expanded; ``ValueError`` saying what is wrong
    (pydantic reports it with the file, line and key).
    """
    if "\x00" in str(path):
        raise ValueError("the path contains a NUL byte")
    try:
        return path.expanduser()
    except RuntimeError:  # no such user, or no home directory known
        first = path.parts[0] if path.parts else str(path)
        if first == "~":
            raise ValueError(
                "'~' cannot be expanded: the home directory is unknown (HOME is not set)"
            ) from None
        raise ValueError(
            f"{first!r} names no user on this machine; write an absolute path, or ~/... for "
            "your own home directory"
        ) from None


class AgentConfig(_Redacting):
    """An agent, as configured in a YAML file.

    Attributes:
        model: The model back end (required).
        format: How sections are written (``xml``, ``markdown``).
        toolchain: How tool calls are written (``json``, ``yaml``).
        termination: How the final answer is read (``text``, ``json``).
        tools: The tools the model may call, and toolsets (``{mcp: {...}}``) supplying more.
        middleware: Lifecycle-hook plugins switched on for this agent (``natural``...); the
            shorthand ``<middleware>: true`` or ``<middleware>: {<options>}`` at the top
            level is accepted too.
        allow_writes: Whether tools that change files or other state (``write_file``,
            ``edit_file``...) may be configured. Off by default.
        thinking: Whether the model is asked for a thinking section before acting.
        max_steps: Steps allowed in one run (a step is one model call, plus the calls that
            repair its tool calls; ``limits.max_model_calls`` bounds them all).
        timeouts: Tool and model timeouts.
        limits: Error and output-size limits.
        working_directory: The directory tools work in; a relative path is resolved against
            the config file's directory when loaded from a file.
        prompt: System prompt additions and overrides.
        approval: Which tools may run without asking.
    """

    model_config = ConfigDict(extra="forbid")

    model: ComponentSpec
    format: ComponentSpec = _component("xml")
    toolchain: ComponentSpec = _component("json")
    termination: ComponentSpec = _component("text")
    tools: list[ToolEntry] = Field(default_factory=list)
    middleware: list[ComponentSpec] = Field(default_factory=list)
    allow_writes: bool = False
    thinking: bool = True
    max_steps: _Count = _LIMITS.max_steps
    timeouts: TimeoutsConfig = Field(default_factory=TimeoutsConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    working_directory: Path = Field(Path("."), validate_default=True)
    prompt: PromptConfig = Field(default_factory=PromptConfig)
    approval: ApprovalConfig = Field(default_factory=ApprovalConfig)

    @field_validator("working_directory")
    @classmethod
    def _resolve_directory(cls, value: Path, info: ValidationInfo) -> Path:
        base = info.context.get("base_dir") if isinstance(info.context, Mapping) else None
        value = _expand_home(value)
        if base is not None and not value.is_absolute():
            value = Path(base) / value
        # A link loop or an unresolvable path: PathRefused, a ValueError saying which.
        return resolve_real(value) if base is not None else value

    def limits_object(self) -> Limits:
        """Return the run's :class:`~gent_core.context.Limits`."""
        return Limits(
            max_steps=self.max_steps,
            tool_timeout=self.timeouts.tool,
            model_timeout=self.timeouts.model,
            model_idle_timeout=self.timeouts.model_idle,
            **self.limits.model_dump(),  # the same names as Limits' fields
        )

    def attach_secrets(self, secrets: frozenset[str]) -> None:
        """Remember ``secrets`` so ``repr()``/``str()`` of this config never show them."""
        self._secrets = secrets
        specs: list[_Redacting] = [
            self.model,
            self.format,
            self.toolchain,
            self.termination,
            *self.tools,
            *self.middleware,
        ]
        for spec in specs:
            spec._secrets = secrets

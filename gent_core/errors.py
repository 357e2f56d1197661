"""The error types of gent.

Every error gent raises derives from :class:`GentError`. An error carries *where* it happened
(section, tool, plugin, file, line, column, offset) and two texts:

* ``str(error)`` is written for the programmer: what went wrong and where;
* :attr:`GentError.model_message` is written for the model, when the model caused the error
  (messy output, a wrong tool argument...): what was wrong and what is accepted, so the model
  can correct itself on the next step.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "AmbiguousComponentError",
    "AmbiguousSectionError",
    "ComponentNotFoundError",
    "ConfigError",
    "ConfigProblem",
    "GentError",
    "HookError",
    "InputBoundsError",
    "InputError",
    "InputSyntaxError",
    "InputTooLargeError",
    "InvalidJSONError",
    "InvalidToolArgumentsError",
    "InvalidYAMLError",
    "Location",
    "MissingToolNameError",
    "ModelError",
    "NoSectionsFoundError",
    "ParseError",
    "PluginLoadError",
    "TerminationError",
    "ToolError",
    "ToolExecutionError",
    "ToolTimeoutError",
    "ToolsetError",
    "TruncatedCallError",
    "TruncatedOutputError",
    "UnknownToolError",
    "describe_error",
]

_MAX_PROBLEMS = 10  # problems of a pydantic ValidationError written out by describe_error


def describe_error(error: BaseException) -> str:
    """An exception as text for a message: ``"TypeError: what it says"``.

    A pydantic ``ValidationError`` is written as its problems (``"3 problems validating
    Options: count: Input should be a valid integer; ..."``), without the input values and
    without pydantic's "For further information visit https://errors.pydantic.dev" lines,
    which are for programmers. Every message that shows an exception from outside gent's own
    errors (a plugin's factory, a tool, a hook, a server's answer) writes it with this.
    """
    name = type(error).__name__
    core = sys.modules.get("pydantic_core")  # not imported: not a ValidationError either
    if core is not None and isinstance(error, core.ValidationError):
        details = error.errors(include_url=False, include_input=False)
        shown = [
            f"{'.'.join(str(part) for part in detail['loc']) or '(the value)'}: {detail['msg']}"
            for detail in details[:_MAX_PROBLEMS]
        ]
        if len(details) > _MAX_PROBLEMS:
            shown.append(f"... and {len(details) - _MAX_PROBLEMS} more")
        count = f"{len(details)} problem{'s' if len(details) != 1 else ''}"
        return f"{name}: {count} validating {error.title}: " + "; ".join(shown)
    text = str(error)
    return f"{name}: {text}" if text else name


@dataclass(frozen=True)
class Location:
    """Where an error happened. Every field is optional; unknown parts stay ``None``.

    Attributes:
        section: Name of the output section (``"action"``, ``"answer"``...).
        tool: Name of the tool involved.
        plugin: Name of the plugin (entry-point name) involved.
        file: Path of a file (a config file, a transcript...).
        line: 1-based line number inside ``file`` or inside the parsed text.
        column: 1-based column number.
        offset: 0-based character offset inside the parsed text.
        key: Dotted key path inside a config document (``"tools.0.name"``).
    """

    section: str | None = None
    tool: str | None = None
    plugin: str | None = None
    file: str | None = None
    line: int | None = None
    column: int | None = None
    offset: int | None = None
    key: str | None = None

    def describe(self) -> str:
        """Return a short human-readable rendering such as ``file agent.yaml, line 3``."""
        parts: list[str] = []
        if self.file is not None:
            parts.append(f"file {self.file}")
        if self.line is not None:
            parts.append(f"line {self.line}" + (f", column {self.column}" if self.column else ""))
        elif self.offset is not None:
            parts.append(f"offset {self.offset}")
        if self.key is not None:
            parts.append(f"key {self.key!r}")
        if self.section is not None:
            parts.append(f"section {self.section!r}")
        if self.tool is not None:
            parts.append(f"tool {self.tool!r}")
        if self.plugin is not None:
            parts.append(f"plugin {self.plugin!r}")
        return ", ".join(parts)


class GentError(Exception):
    """Base class of every error raised by gent and its plugins.

    Args:
        message: What went wrong, for the programmer.
        location: Where it happened.
        model_message: Text for the model when the model caused the error. Defaults to
            ``message``.
        hint: What is accepted instead; appended to both texts.
    """

    def __init__(
        self,
        message: str,
        *,
        location: Location | None = None,
        model_message: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.location = location if location is not None else Location()
        self.hint = hint
        self._model_message = model_message
        super().__init__(message)

    @property
    def model_message(self) -> str:
        """The text shown to the model: what was wrong and what is accepted."""
        text = self._model_message if self._model_message is not None else self.message
        if self.hint and self.hint not in text:
            text = f"{text}\n{self.hint}"
        return text

    def __str__(self) -> str:
        where = self.location.describe()
        text = f"{self.message} ({where})" if where else self.message
        if self.hint:
            text = f"{text}\n{self.hint}"
        return text


# --------------------------------------------------------------------------- parsing


class ParseError(GentError):
    """Model output could not be parsed."""


class NoSectionsFoundError(ParseError):
    """None of the expected sections appears in the model output."""

    def __init__(self, expected: Sequence[str], *, format_name: str, example: str = "") -> None:
        self.expected = tuple(expected)
        names = ", ".join(expected)
        model_message = f"No recognised section found in your output. Expected one of: {names}."
        if example:
            model_message += f"\nWrite them like this:\n{example}"
        super().__init__(
            f"no recognised sections found in output (format {format_name!r}, expected {names})",
            model_message=model_message,
        )


class TruncatedOutputError(ParseError):
    """A section was opened but never closed: the output was cut off."""


class AmbiguousSectionError(ParseError):
    """Strict parsing found a section tag whose pairing is ambiguous."""


class InvalidJSONError(ParseError):
    """A section holds text that is not valid JSON."""


class InvalidYAMLError(ParseError):
    """A section holds text that is not valid (safe) YAML."""


class TruncatedCallError(ParseError):
    """A tool call was cut off (unbalanced brackets, unterminated string)."""


class MissingToolNameError(ParseError):
    """A tool call has no ``tool`` (or ``name``) field."""


# --------------------------------------------------------------------------- tools


class ToolError(GentError):
    """Base class of errors about one tool call."""


class UnknownToolError(ToolError):
    """A tool call names a tool that is not available."""

    def __init__(self, name: str, available: Sequence[str]) -> None:
        self.name = name
        self.available = tuple(available)
        listed = ", ".join(available) if available else "(none)"
        super().__init__(
            f"unknown tool {name!r}; available tools: {listed}",
            location=Location(tool=name),
            model_message=f"Unknown tool {name!r}. Available tools: {listed}.",
        )


class InvalidToolArgumentsError(ToolError):
    """The arguments of a tool call do not match the tool's schema."""


class ToolExecutionError(ToolError):
    """A tool raised an exception while running."""


class ToolTimeoutError(ToolError):
    """A tool did not finish within its timeout."""


# --------------------------------------------------------------------------- answers


class TerminationError(GentError):
    """The answer section could not be turned into the final answer."""


# --------------------------------------------------------------------------- models


class ModelError(GentError):
    """A model back end failed (connection, authentication, bad model name...)."""


# --------------------------------------------------------------------------- outside input


class InputError(GentError):
    """Text or a file from outside gent (a config, suite, transcript or conversation file, a
    command-line argument) that cannot be read; see :mod:`gent_core._bounded`.

    ``str(error)`` names the input (``ARGS``, ``agent.yaml``), what is wrong and what is
    accepted.

    Args:
        message: The whole message, naming the input.
        problem: What is wrong without naming the input, for a caller that names it itself
            (a config error's ``file, line N:`` prefix); defaults to ``message``.
        line: The 1-based line inside the input, when known.
        column: The 1-based column, when known.
        path: Where inside the value (keys and list indexes), when known.
        hint: How to change a bound that can be changed.

    Attributes:
        problem: See above.
        line: See above.
        column: See above.
        path: See above.
    """

    def __init__(
        self,
        message: str,
        *,
        problem: str | None = None,
        line: int | None = None,
        column: int | None = None,
        path: Sequence[str | int] = (),
        hint: str | None = None,
    ) -> None:
        super().__init__(message, hint=hint)
        self.problem = problem or message
        self.line = line
        self.column = column
        self.path = tuple(path)


class InputSyntaxError(InputError):
    """Input that is not valid JSON (strict: no ``NaN``) or YAML."""


class InputBoundsError(InputError):
    """Valid JSON or YAML beyond a bound of every gent value: nested too deeply, an integer
    of too many digits, a number that is not finite, too many YAML values.
    """


class InputTooLargeError(InputError):
    """A file larger than the size limit of its kind (config, suite, transcript,
    conversation); the hint names the environment variable that changes the limit.
    """


# --------------------------------------------------------------------------- plugins


class PluginLoadError(GentError):
    """A plugin failed to import or to register (raised only in strict mode)."""

    def __init__(
        self, plugin: str, distribution: str | None, error: str, *, cause: BaseException | None
    ) -> None:
        self.plugin = plugin
        self.distribution = distribution
        self.error = error
        dist = f" from distribution {distribution!r}" if distribution else ""
        super().__init__(
            f"plugin {plugin!r}{dist} failed to load: {error}",
            location=Location(plugin=plugin),
            hint="Unset GENT_STRICT_PLUGINS to skip broken plugins, or block this one with "
            f"GENT_DISABLE_PLUGINS={plugin}.",
        )
        if cause is not None:
            self.__cause__ = cause


class ToolsetError(GentError):
    """A toolset (an MCP server...) could not be opened: its tools are unavailable.

    Attributes:
        toolset: The toolset's description (``"mcp git (stdio: python -m ...)"``).
    """

    def __init__(self, toolset: str, location: Location | None, error: BaseException) -> None:
        self.toolset = toolset
        reason = str(error) if isinstance(error, GentError) else describe_error(error)
        super().__init__(
            f"the toolset {toolset} could not be opened: {reason}",
            location=location,
            hint="Check the toolset's settings in the config (command, URL, arguments) and "
            "that what it starts is installed.",
        )
        self.__cause__ = error


class HookError(GentError):
    """A plugin's lifecycle hook raised during a run.

    Attributes:
        hook: The hook's name.
        plugins: The plugin that raised, when it is known; otherwise every plugin
            implementing the hook.
    """

    def __init__(self, hook: str, plugins: Sequence[str], error: BaseException) -> None:
        self.hook = hook
        self.plugins = tuple(plugins)
        listed = ", ".join(plugins) or "(none)"
        super().__init__(
            f"the {hook} hook failed: {describe_error(error)}",
            location=Location(plugin=plugins[0] if len(plugins) == 1 else None),
            hint=(
                f"Raised by the plugin {listed}. Fix or disable it (GENT_DISABLE_PLUGINS={listed})."
                if len(plugins) == 1
                else f"Plugins implementing it: {listed}. Fix or disable the plugin "
                "(GENT_DISABLE_PLUGINS=name)."
            ),
        )
        self.__cause__ = error

    @classmethod
    def raised_by(cls, hook: str, caller: Any, error: BaseException) -> HookError:
        """The error of ``hook`` when one of its implementations raised ``error``
        (``caller``: its pluggy hook caller): naming the plugin whose implementation is in
        the error's traceback, or every plugin implementing the hook when none is.
        """
        implementations = caller.get_hookimpls()
        plugin_of = {
            getattr(impl.function, "__code__", None): impl.plugin_name for impl in implementations
        }
        frame = error.__traceback__
        while frame is not None:
            name = plugin_of.get(frame.tb_frame.f_code)
            if name is not None:
                return cls(hook, [name], error)
            frame = frame.tb_next
        return cls(hook, sorted({impl.plugin_name for impl in implementations}), error)


class ComponentNotFoundError(GentError):
    """No installed plugin supplies a component of this kind and name."""

    def __init__(
        self,
        kind: str,
        name: str,
        available: Sequence[str],
        suggestion: str | None,
        install_hint: str | None = None,
    ) -> None:
        self.kind = kind
        self.name = name
        self.available = tuple(available)
        self.suggestion = suggestion
        self.install_hint = install_hint
        """Which distribution of gent's own supplies it and how to install it, if one does."""
        listed = ", ".join(available) if available else "(none installed)"
        message = f"no {kind} named {name!r}"
        if install_hint:
            message += f"; {install_hint}"
        elif suggestion:
            message += f"; did you mean {suggestion!r}?"
        super().__init__(message, hint=f"Available {kind}s: {listed}.")


class AmbiguousComponentError(GentError):
    """Several plugins supply a component with the same name."""

    def __init__(self, kind: str, name: str, plugins: Sequence[str]) -> None:
        self.kind = kind
        self.name = name
        self.plugins = tuple(plugins)
        choices = ", ".join(f"{plugin}:{name}" for plugin in plugins)
        super().__init__(
            f"{kind} {name!r} is supplied by several plugins: {', '.join(plugins)}",
            hint=f"Pick one with a qualified name: {choices}.",
        )


@dataclass(frozen=True)
class ConfigProblem:
    """One thing wrong in a configuration: where, what was wrong and what is accepted.

    Attributes:
        message: What was wrong and what is accepted, e.g.
            ``"expected an integer >= 1, got 'many'"``.
        location: Where (file, line, column, dotted key path).
    """

    message: str
    location: Location = Location()

    def render(self) -> str:
        """Return one line such as ``agent.yaml, line 6, key 'max_steps': expected ...``."""
        where: list[str] = []
        if self.location.file is not None:
            where.append(self.location.file)
        if self.location.line is not None:
            where.append(f"line {self.location.line}")
        if self.location.key:
            where.append(f"key {self.location.key!r}")
        if self.location.plugin is not None:
            where.append(f"plugin {self.location.plugin!r}")
        return f"{', '.join(where)}: {self.message}" if where else self.message


class ConfigError(GentError):
    """A configuration file or mapping is invalid.

    Raised either with a single ``message`` (and a ``location``), or with ``problems``: every
    problem found at once, rendered one per line (``file, line N, key 'k': what is wrong and
    what is accepted``).

    Args:
        message: What went wrong; built from ``problems`` when omitted.
        problems: Every problem found; the first one's location is :attr:`location`.
        location: Where it happened (single-message form).
        hint: What is accepted instead.

    Attributes:
        problems: The problems, in file order (one problem for the single-message form).
    """

    def __init__(
        self,
        message: str | None = None,
        *,
        problems: Sequence[ConfigProblem] = (),
        location: Location | None = None,
        model_message: str | None = None,
        hint: str | None = None,
    ) -> None:
        self._rendered = bool(problems) and message is None
        if not problems:
            problems = (ConfigProblem(message or "invalid configuration", location or Location()),)
        self.problems: tuple[ConfigProblem, ...] = tuple(problems)
        if message is None:
            lines = [problem.render() for problem in self.problems]
            if len(lines) > 1:
                source = self.problems[0].location.file
                head = f"{len(lines)} problems in the configuration"
                lines.insert(0, f"{source}: {head}:" if source else f"{head}:")
            message = "\n".join(lines)
        super().__init__(
            message,
            location=location if location is not None else self.problems[0].location,
            model_message=model_message,
            hint=hint,
        )

    def __str__(self) -> str:
        if not self._rendered:
            return super().__str__()
        return f"{self.message}\n{self.hint}" if self.hint else self.message

"""Loading an agent configuration: YAML text -> :class:`LoadedConfig`.

Every problem is reported with the file, the line and the key, and says what is accepted;
all the problems found are reported at once (one per line) in a
:class:`~gent_core.errors.ConfigError`. Secret values never appear in a message.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError

from gent_core._bounded import CONFIG_FILE, read_text_file
from gent_core._config.models import AgentConfig
from gent_core._config.problems import problems_from_validation_error, show_value
from gent_core._config.secrets import (
    MIN_TEXT_SECRET_LENGTH,
    Redactor,
    is_placeholder,
    is_secret_key,
    redact_value,
)
from gent_core._config.shorthand import (
    MiddlewareNames,
    expand_middleware_shorthand,
    installed_middleware,
)
from gent_core._config.yamldoc import Document, KeyPath, Mark, YAMLSyntaxError, read_document
from gent_core.errors import ConfigError, ConfigProblem, InputError, Location

__all__ = [
    "LoadedConfig",
    "config_from_data",
    "format_key",
    "load_config",
    "parse_config",
    "read_config_document",
]

_log = logging.getLogger(__name__)


def format_key(path: KeyPath) -> str:
    """The dotted form of a key path: ``("tools", 1, "name")`` -> ``"tools.1.name"``."""
    return ".".join(str(part) for part in path)


@functools.cache
def _config_schema() -> dict[str, Any]:
    return AgentConfig.model_json_schema()


@dataclass(frozen=True, repr=False)
class LoadedConfig:
    """A validated configuration, where it came from, and its secrets.

    Attributes:
        config: The validated configuration.
        source: The file name as given (or ``"<string>"``).
        secrets: The credential values (see :mod:`gent_core._config.secrets`): values under
            credential-like keys, expansions of credential-named variables.
        base_dir: The directory relative paths were resolved against.
        marks: Where each key path was written.
        aliases: Rewritten key paths (shorthand) -> the key paths the user wrote.
        origins: Key paths set from outside the file (``--option max_steps=4``, ``--matrix
            format=xml``) -> what set them; see :mod:`gent_core._config.overrides`.
    """

    config: AgentConfig
    source: str
    secrets: frozenset[str] = frozenset()
    base_dir: Path = field(default_factory=Path.cwd)
    marks: Mapping[KeyPath, Mark] = field(default_factory=dict)
    aliases: Mapping[KeyPath, KeyPath] = field(default_factory=dict)
    origins: Mapping[KeyPath, str] = field(default_factory=dict)

    @functools.cached_property
    def redactor(self) -> Redactor:
        """The :class:`~gent_core._config.secrets.Redactor` masking this config's credentials.

        It also masks them in streamed text (:meth:`Redactor.stream`).
        """
        return Redactor(self.secrets)

    def redact(self, text: str) -> str:
        """Return free text with every credential of at least
        :data:`~gent_core._config.secrets.MIN_TEXT_SECRET_LENGTH` characters (and every URL
        password) replaced by ``***``.

        Everything that logs, prints or writes a transcript passes its free text through this;
        the user's own text (the task, the answer) is never redacted.
        """
        return self.redactor.redact(text)

    def is_secret(self, path: KeyPath, value: Any) -> bool:
        """Whether the value at ``path`` must not be shown (a credential, or under a credential
        key).
        """
        return any(is_secret_key(part) for part in path) or self.redactor.is_secret_value(value)

    def redacted_dict(self) -> dict[str, Any]:
        """The configuration as a JSON-ready dict, every credential masked as ``***`` as a
        whole (keys and structure unchanged).
        """
        data = self.config.model_dump(mode="json")
        redacted: dict[str, Any] = redact_value(data, self.redactor)
        return redacted

    def origin_of(self, key_path: KeyPath) -> str | None:
        """What set ``key_path`` (or a key above it) from outside the file, e.g.
        ``--option max_steps=4``; ``None`` when its value comes from the file.
        """
        found = None
        for path, origin in self.origins.items():
            if key_path[: len(path)] == path:
                found = origin  # the latest one wins (origins are kept in order)
        return found

    def location_of(self, key_path: KeyPath | str) -> Location:
        """Where ``key_path`` was written: file, line, column and dotted key.

        Args:
            key_path: A tuple such as ``("tools", 1, "name")`` or its dotted form.

        Returns:
            The location of the key, or of its nearest parent written in the file (the line
            is ``None`` when not even a parent was written, e.g. a default value). A key set
            from outside the file (:meth:`origin_of`) has only its dotted key: no line of the
            file describes it.
        """
        if isinstance(key_path, str):
            key_path = tuple(
                int(part) if part.isdigit() else part for part in key_path.split(".") if part
            )
        path = tuple(key_path)
        if self.origin_of(path) is not None:
            return Location(key=format_key(path) or None)
        return _locate(self.marks, self.source, path, self.aliases)

    def __repr__(self) -> str:
        return (
            f"LoadedConfig(source={self.source!r}, config={self.config!r}, "
            f"secrets=<{len(self.secrets)} hidden>)"
        )


def _raise(problems: list[ConfigProblem]) -> NoReturn:
    """Raise every problem, in file order, without chaining (causes may quote secrets)."""
    ordered = sorted(problems, key=lambda problem: problem.location.line or 0)
    raise ConfigError(problems=ordered) from None


def _document_problems(document: Document, source: str) -> list[ConfigProblem]:
    problems = []
    for path, message, mark in document.problems:
        where = mark or _nearest(document.marks, path)
        problems.append(
            ConfigProblem(
                message,
                Location(
                    file=source,
                    line=where.line if where else None,
                    column=where.column if where else None,
                    key=format_key(path) or None,
                ),
            )
        )
    return problems


def _nearest(marks: Mapping[KeyPath, Mark], path: KeyPath) -> Mark | None:
    while path not in marks and path:
        path = path[:-1]
    return marks.get(path)


def _locate(
    marks: Mapping[KeyPath, Mark],
    source: str,
    path: KeyPath,
    aliases: Mapping[KeyPath, KeyPath] | None = None,
) -> Location:
    """The location of ``path``, or of its nearest parent other than the document itself.

    ``aliases`` maps rewritten key paths (shorthand) to what the user wrote, for the key shown.
    """
    shown = path
    for new, old in (aliases or {}).items():
        if path[: len(new)] == new:
            shown = (*old, *path[len(new) :])
            if shown[len(old) : len(old) + 1] == ("name",):
                shown = old
            break
    probe = path
    while probe not in marks and probe:
        probe = probe[:-1]
    mark = marks.get(probe) if probe or not path else None
    return Location(
        file=source or None,
        line=mark.line if mark else None,
        column=mark.column if mark else None,
        key=format_key(shown) or None,
    )


def syntax_problem(error: YAMLSyntaxError, source: str) -> ConfigProblem:
    """A YAML file's syntax error as a problem located in ``source`` (line, column, key):
    for the configuration and the ``gent eval`` suites alike.
    """
    mark = error.mark
    return ConfigProblem(
        error.message,
        Location(
            file=source,
            line=mark.line if mark else None,
            column=mark.column if mark else None,
            key=format_key(error.path) or None,
        ),
    )


def parse_config(
    text: str,
    *,
    source: str = "<string>",
    base_dir: str | os.PathLike[str] | None = None,
    environ: Mapping[str, str] | None = None,
    middleware_names: MiddlewareNames | None = None,
    defaults: Mapping[str, Any] | None = None,
) -> LoadedConfig:
    """Parse and validate a YAML configuration.

    Args:
        text: The YAML text.
        source: The file name used in messages.
        base_dir: Where a relative ``working_directory`` is resolved (default: the current
            directory).
        environ: The environment ``${VAR}`` references are read from (default:
            ``os.environ``).
        middleware_names: Returns the installed middleware names, for the shorthand
            ``<middleware>: true`` (default: ask the installed plugins, only when the config
            has a key that is not a known setting).
        defaults: Top-level keys used when the configuration does not set them (``gent
            mcp-serve`` serves a config's tools, which needs no ``model``).

    Returns:
        The validated configuration with its secrets and key positions.

    Raises:
        ConfigError: Listing every problem with its file, line and key, and what is
            accepted: invalid YAML, not a mapping, an unset variable, an unknown key, a value
            of the wrong type, a working directory that does not exist...
    """
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    document = read_config_document(text, source, os.environ if environ is None else environ)
    redactor = Redactor(document.credentials)

    def is_secret(path: KeyPath, value: Any) -> bool:
        return any(is_secret_key(part) for part in path) or redactor.is_secret_value(value)

    _check_shape(document, source, is_secret)
    config, marks, aliases = _validate(
        document, source, base, middleware_names, defaults, is_secret
    )
    loaded = LoadedConfig(config, source, frozenset(redactor.secrets), base, marks, aliases)
    config.attach_secrets(loaded.secrets)
    _check_working_directory(loaded)
    _warn_short_credentials(document, source)
    return loaded


def read_config_document(text: str, source: str, environ: Mapping[str, str]) -> Document:
    """The YAML document of ``text`` read as a config is (safe, bounded, with the mark of
    every key), ``${VAR}`` expanded from ``environ``: for a config and for another
    application's YAML file (a ``gent eval`` suite) alike.

    Raises:
        ConfigError: On a syntax error (with a hint when a ``${...}`` near it is unquoted
            inside a flow collection).
    """
    try:
        return read_document(text, environ)
    except YAMLSyntaxError as error:
        problem = syntax_problem(error, source)
        mark = error.mark
        lines = text.splitlines()
        if (
            problem.message.startswith("invalid YAML")
            and mark
            and "${" in "".join(lines[max(mark.line - 2, 0) : mark.line])
        ):
            hint = " (inside [...] or {...}, quote a value that uses ${...}: '${NAME}')"
            problem = ConfigProblem(problem.message + hint, problem.location)
        _raise([problem])


def _check_shape(
    document: Document, source: str, is_secret: Callable[[KeyPath, Any], bool]
) -> None:
    """Refuse a document that is empty or not a mapping (unless it has problems of its own).

    Raises:
        ConfigError: Saying what a configuration needs.
    """
    if document.data is None and not document.problems:
        _raise(
            [
                ConfigProblem(
                    "the configuration is empty; it needs at least a 'model' key "
                    "(e.g. 'model: llamacpp')",
                    Location(file=source),
                )
            ]
        )
    if not isinstance(document.data, dict) and not document.problems:
        mark = document.marks.get(())
        got = show_value(document.data, secret=is_secret((), document.data))
        _raise(
            [
                ConfigProblem(
                    "the configuration must be a mapping of keys (model, format, toolchain, "
                    f"termination, tools, ...), got {got}",
                    Location(file=source, line=mark.line if mark else None),
                )
            ]
        )


def _validate(
    document: Document,
    source: str,
    base: Path,
    middleware_names: MiddlewareNames | None,
    defaults: Mapping[str, Any] | None,
    is_secret: Callable[[KeyPath, Any], bool],
) -> tuple[AgentConfig, Mapping[KeyPath, Mark], Mapping[KeyPath, KeyPath]]:
    """The validated configuration of ``document``, with the key marks and aliases of the
    middleware shorthand it expanded.

    Raises:
        ConfigError: Every problem of the document and of its validation at once.
    """
    problems = _document_problems(document, source)
    # values that could not be read are None: their validation errors would only repeat them
    unreadable = [path for path, _, mark in document.problems if mark is None]
    expanded = expand_middleware_shorthand(
        document, AgentConfig.model_fields, middleware_names or installed_middleware
    )
    marks, aliases = expanded.marks, expanded.aliases
    problems += [
        ConfigProblem(message, _locate(marks, source, path)) for path, message in expanded.problems
    ]
    data = expanded.data
    if defaults and isinstance(data, dict):
        data = {**defaults, **data}
    try:
        config = AgentConfig.model_validate(data, context={"base_dir": base})
    except ValidationError as error:
        found = problems_from_validation_error(error, _config_schema(), is_secret=is_secret)
        problems += [
            ConfigProblem(message, _locate(marks, source, path, aliases))
            for path, message in found
            if not any(path[: len(bad)] == bad for bad in unreadable)
        ]
    if problems:
        _raise(problems)
    return config, marks, aliases


def _check_working_directory(loaded: LoadedConfig) -> None:
    """Refuse a working directory that does not exist or is not a directory.

    Raises:
        ConfigError: Naming the directory (redacted) and what is expected.
    """
    from gent_core._path_probe import probe_path

    directory = loaded.config.working_directory
    probe = probe_path(directory)
    if not probe.is_dir:
        state = "is not a directory" if probe.exists else probe.state
        _raise(
            [
                ConfigProblem(
                    f"the working directory {loaded.redact(str(directory))} {state}; "
                    "expected an existing directory (relative paths are resolved against "
                    "the config file's directory)",
                    loaded.location_of(("working_directory",)),
                )
            ]
        )


def _warn_short_credentials(document: Document, source: str) -> None:
    """Log one warning for each short credential that is not an obvious placeholder: gent
    does not search free text for it, so a real credential that short could be shown.
    """
    warned: set[KeyPath] = set()
    for value, path in document.credentials.items():
        if len(value) < MIN_TEXT_SECRET_LENGTH and not is_placeholder(value) and path not in warned:
            warned.add(path)
            message = (
                f"this credential is only {len(value)} characters long: gent masks it where it "
                "shows the configuration, but looks for credentials in other text (model "
                f"output, tool results, errors) only from {MIN_TEXT_SECRET_LENGTH} characters on"
            )
            where = _locate(document.marks, source, path)
            _log.warning("%s", ConfigProblem(message, where).render())


def config_from_data(
    data: Mapping[str, Any],
    *,
    source: str = "",
    base_dir: Path | None = None,
    aliases: Mapping[KeyPath, KeyPath] | None = None,
) -> LoadedConfig:
    """Validate a configuration given as Python data rather than YAML text (the arguments of
    ``Agent(...)``): the same models and messages as :func:`parse_config`, with no lines.

    Args:
        data: The configuration's keys and values, as a YAML file would hold them.
        source: What messages name as the file (``""``: none, only the key).
        base_dir: Where a relative ``working_directory`` is resolved (default: the current
            directory).
        aliases: Key paths of ``data`` -> the key paths messages show (``tools.0`` ->
            ``tools.2`` when the caller's list had two entries that are not config entries).

    Returns:
        The validated configuration; the strings under credential-like keys (``api_key``...)
        are its secrets.

    Raises:
        ConfigError: Listing every problem with its key and what is accepted.
    """
    base = base_dir if base_dir is not None else Path.cwd()
    secrets = frozenset(_credentials(data, ()))
    redactor = Redactor(secrets)

    def is_secret(path: KeyPath, value: Any) -> bool:
        return any(is_secret_key(part) for part in path) or redactor.is_secret_value(value)

    try:
        config = AgentConfig.model_validate(dict(data), context={"base_dir": base})
    except ValidationError as error:
        found = problems_from_validation_error(error, _config_schema(), is_secret=is_secret)
        _raise(
            [ConfigProblem(message, _locate({}, source, path, aliases)) for path, message in found]
        )
    loaded = LoadedConfig(config, source, secrets, base, aliases=dict(aliases or {}))
    config.attach_secrets(secrets)
    return loaded


def _credentials(value: Any, path: KeyPath) -> list[str]:
    """The strings of ``value`` under a credential-like key (``api_key``, ``token``...)."""
    if isinstance(value, Mapping):
        return [
            found for key, item in value.items() for found in _credentials(item, (*path, str(key)))
        ]
    if isinstance(value, list | tuple):
        return [found for item in value for found in _credentials(item, path)]
    if isinstance(value, str) and value and any(is_secret_key(part) for part in path):
        return [value]
    return []


def load_config(
    path: str | os.PathLike[str],
    *,
    environ: Mapping[str, str] | None = None,
    defaults: Mapping[str, Any] | None = None,
) -> LoadedConfig:
    """Read and validate the YAML configuration file at ``path``.

    A relative ``working_directory`` is resolved against the file's directory.

    Args:
        path: The file.
        environ: The environment ``${VAR}`` references are read from (default:
            ``os.environ``).
        defaults: Top-level keys used when the file does not set them (see
            :func:`parse_config`).

    The file may be at most 2 MiB (:data:`gent_core._bounded.CONFIG_FILE`; the environment
    variable ``GENT_MAX_CONFIG_SIZE`` changes it); its size is checked before it is read.

    Raises:
        ConfigError: When the file cannot be read or is too large, or see
            :func:`parse_config`.
    """
    source = os.fspath(path)
    file = Path(source)
    try:
        text = read_text_file(file, CONFIG_FILE, environ=environ)
    except InputError as error:
        raise ConfigError(
            problems=[ConfigProblem(error.problem, Location(file=source))], hint=error.hint
        ) from None
    return parse_config(
        text, source=source, base_dir=file.parent.resolve(), environ=environ, defaults=defaults
    )

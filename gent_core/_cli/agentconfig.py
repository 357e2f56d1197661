"""Which agent ``gent run``, ``gent chat`` and ``gent describe`` use: the config, then the
flags on top.

**The config**, first match wins:

1. a CONFIG argument (or ``--config FILE``);
2. with ``--resume TRANSCRIPT|ID`` or ``--continue``: the configuration the run recorded (in
   its transcript, or its first record in the history database; secrets masked in it are
   read again from the config file it names; see :mod:`gent_core._config.recorded`);
3. ``gent.yaml`` in the current directory;
4. the built-in agent (:mod:`gent_core._config.default`).

**The flags** change any key of it, in the style of ``llm -m MODEL -T TOOL``, through the
configuration's one override mechanism (:mod:`gent_core._config.overrides`):

* ``-m/--model NAME``, ``--format NAME``, ``--toolchain NAME`` switch a component; options
  the config wrote for a *different* component are dropped (a new one gets its own with
  ``--option``), the same name keeps them;
* ``-T/--tool NAME`` (repeatable) adds a tool to the config's tools; ``--no-tools`` first
  clears them (toolsets included), so ``--no-tools -T calculator`` is exactly one tool;
* ``-o/--option KEY=VALUE`` (repeatable) sets any key, dotted into the config
  (``model.temperature=0.2``, ``max_steps=4``, ``termination.schema=answers:Verdict``); the
  value is read as a YAML scalar;
* ``-s/--system TEXT`` (repeatable) adds a paragraph to ``prompt.append``, the end of the
  system prompt;
* ``--cwd DIR`` sets ``working_directory`` to DIR (without it, tools work in the config
  file's folder, not the current directory), resolved against the directory the user is in
  (which stays the current directory: the config file, ``--transcript`` and other relative
  paths are found there, as a user expects).

Flags apply in the order given. A wrong value is reported naming the flag, not a file line.

**A single argument** of ``gent run`` is the task, unless it is an existing file whose name
ends in ``.yaml``/``.yml`` (then it is the config, and the task is missing). A ``.yaml`` name
with no such file is refused, saying both readings, rather than guessed.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gent_core._cli.errors import UsageError

if TYPE_CHECKING:
    from gent_core._config import LoadedConfig
    from gent_core._config.overrides import Override

__all__ = [
    "CONFIG_SUFFIXES",
    "LOCAL_CONFIG",
    "add_agent_arguments",
    "agent_overrides",
    "default_agent_help",
    "header_agent_config",
    "is_config_file",
    "load_agent_config",
    "split_config_and_task",
]

logger = logging.getLogger("gent.cli")

LOCAL_CONFIG = "gent.yaml"
"""The config file used when none is given, if it exists in the current directory."""

CONFIG_SUFFIXES = (".yaml", ".yml")
"""What a config file's name ends with."""


def is_config_file(text: str) -> bool:
    """Whether ``text`` names an existing file ending in ``.yaml``/``.yml`` (a name the system
    cannot check, too long or in a directory that cannot be searched, is not one).
    """
    from gent_core._path_probe import probe_path

    return text.lower().endswith(CONFIG_SUFFIXES) and probe_path(text).is_file


def _looks_like_config_name(text: str) -> bool:
    """A ``.yaml``/``.yml`` name without spaces: meant as a file rather than a task."""
    return text.lower().endswith(CONFIG_SUFFIXES) and not any(c.isspace() for c in text)


def _close_file(name: str) -> str:
    """`` (did you mean 'agent.yaml'?)`` for a config file named like ``name`` nearby."""
    import difflib

    folder = Path(name).parent
    try:
        nearby = [
            str(folder / path.name) if str(folder) != "." else path.name
            for path in folder.iterdir()
            if path.name.lower().endswith(CONFIG_SUFFIXES) and path.is_file()
        ]
    except OSError:
        return ""
    close = difflib.get_close_matches(name, nearby, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


# --------------------------------------------------------------------------- flags


def _component(name: str) -> Callable[[Any], Any]:
    """Switch a component to ``name``, keeping its options only when it is the same one."""

    def update(current: Any) -> Any:
        configured = current.get("name") if isinstance(current, dict) else current
        return current if configured == name else name

    return update


def _tool_names(tools: Any) -> set[str]:
    names = set()
    for entry in tools if isinstance(tools, list) else []:
        if isinstance(entry, str):
            names.add(entry)
        elif isinstance(entry, dict) and isinstance(entry.get("name"), str):
            names.add(entry["name"])
    return names


def _add_tool(name: str) -> Callable[[Any], Any]:
    def update(current: Any) -> Any:
        tools = list(current) if isinstance(current, list) else []
        return tools if name in _tool_names(tools) else [*tools, name]

    return update


def _non_empty(flag: str, text: str) -> str:
    name = text.strip()
    if not name:
        raise ValueError(f"{flag} needs a plugin name, got an empty string")
    return name


def _make_override(flag: str, text: str) -> Override:
    """The :class:`Override` one flag stands for (``ValueError`` naming what is wrong)."""
    from gent_core._config.overrides import Override, parse_setting

    if flag in ("-m", "--model", "--format", "--toolchain"):
        key = "model" if flag in ("-m", "--model") else flag[2:]
        name = _non_empty(flag, text)
        return Override(key, origin=f"{flag} {name}", update=_component(name))
    if flag in ("-T", "--tool"):
        name = _non_empty(flag, text)
        return Override("tools", origin=f"{flag} {name}", update=_add_tool(name))
    if flag in ("-s", "--system"):
        return Override("prompt.append", origin=f"{flag} {text!r}", update=_append_prompt(text))
    if flag == "--cwd":
        return Override("working_directory", _directory(text), origin=f"--cwd {text}")
    key, value = parse_setting(text)
    return Override(key, value, origin=f"{flag} {text}")


def _append_prompt(text: str) -> Callable[[Any], Any]:
    """Add ``text`` to the system prompt's ``prompt.append`` (after what the config has)."""

    def update(current: Any) -> Any:
        return f"{current}\n\n{text}" if isinstance(current, str) and current else text

    return update


def _directory(text: str) -> str:
    """``--cwd DIR``: the directory as an absolute path, resolved against the directory the
    user is in (``ValueError`` when it is not an existing directory).
    """
    from gent_core._path_probe import probe_path

    path = Path(text).expanduser()
    probe = probe_path(path)
    if not text.strip() or not probe.is_dir:
        state = "is not a directory" if probe.exists else probe.state
        raise ValueError(f"{text!r} {state}; expected an existing directory for the tools")
    return str(path.resolve())


class _OverrideAction(argparse.Action):
    """Collects every override flag, in command-line order, into ``namespace.overrides``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        from gent_core._textscan import quote_start
        from gent_core.errors import InputError

        flag = option_string or self.option_strings[0]
        try:
            override = _make_override(flag, str(values))
        except (ValueError, InputError) as error:
            parser.error(f"{flag} {quote_start(str(values))}: {error}")
        collected = list(getattr(namespace, self.dest, None) or [])
        collected.append(override)
        setattr(namespace, self.dest, collected)


def default_agent_help() -> str:
    """The built-in agent's config, indented for a ``--help`` text."""
    from gent_core._config.default import default_agent_yaml

    body = [line for line in default_agent_yaml().splitlines() if not line.startswith("#")]
    return "\n".join(f"  {line}" for line in body if line.strip())


def add_agent_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--config`` and the flags that change the agent's config (``gent run``,
    ``gent chat``, ``gent describe``). ``--config`` has no short flag: ``-c`` is
    ``--continue`` wherever it exists, as in ``llm``.

    Long because it is a flat table of arguments, one ``add_argument`` each, kept in the
    order ``--help`` shows them.
    """
    group = parser.add_argument_group(
        "agent", "which config, and keys changed on top of it (in the order given)"
    )
    group.add_argument(
        "--config",
        dest="config_file",
        metavar="FILE",
        help=f"the agent's YAML config (default: ./{LOCAL_CONFIG} if it exists, else the "
        "built-in agent)",
    )
    group.add_argument(
        "-m",
        "--model",
        dest="overrides",
        action=_OverrideAction,
        metavar="NAME",
        help="the model back end (llamacpp, openai...)",
    )
    for flag, help_text in (
        ("--format", "how sections are written (xml, markdown...)"),
        ("--toolchain", "how tool calls are written (json, yaml...)"),
    ):
        group.add_argument(
            flag, dest="overrides", action=_OverrideAction, metavar="NAME", help=help_text
        )
    group.add_argument(
        "-T",
        "--tool",
        dest="overrides",
        action=_OverrideAction,
        metavar="NAME",
        help="add a tool to the config's tools (repeatable)",
    )
    group.add_argument(
        "--no-tools",
        action="store_true",
        help="start from no tools (the config's tools and toolsets are dropped; -T adds)",
    )
    group.add_argument(
        "-o",
        "--option",
        dest="overrides",
        action=_OverrideAction,
        metavar="KEY=VALUE",
        help="set any config key, dotted (model.temperature=0.2, max_steps=4); the value is "
        "read as YAML (repeatable)",
    )
    group.add_argument(
        "-s",
        "--system",
        dest="overrides",
        action=_OverrideAction,
        metavar="TEXT",
        help="add TEXT to the system prompt (after the config's prompt.append; repeatable)",
    )
    group.add_argument(
        "--cwd",
        dest="overrides",
        action=_OverrideAction,
        metavar="DIR",
        help="the directory the tools work in (working_directory; default: the config "
        "file's folder, not the current one; the current one for the built-in agent); "
        "CONFIG, -o and other relative paths still resolve against the current directory",
    )
    parser.set_defaults(overrides=[], no_tools=False, config_file=None)


# --------------------------------------------------------------------------- resolution


def split_config_and_task(
    arguments: Sequence[str], config_file: str | None, command: str = "gent run"
) -> tuple[str | None, str | None]:
    """Read ``gent run``'s positional arguments as ``(config file or None, task or None)``.

    Raises:
        UsageError: Too many arguments, or one argument that could be either a config file or
            the task; the message says what was understood.
    """
    given = list(arguments)
    if config_file is not None:
        if len(given) > 1:
            raise UsageError(
                f"with --config, give only the TASK (got {len(given)} arguments); quote a task "
                'with spaces: gent run --config agent.yaml "What is 2 + 2?"'
            )
        return config_file, given[0] if given else None
    if len(given) > 2:
        raise UsageError(
            f"{command} takes [CONFIG] TASK, got {len(given)} arguments; quote a task with "
            f'spaces: {command} "What is 2 + 2?"'
        )
    if len(given) == 2:
        return given[0], given[1]
    if not given:
        return None, None
    (only,) = given
    if is_config_file(only):
        return only, None
    if _looks_like_config_name(only):
        from gent_core._path_probe import probe_path

        probe = probe_path(only)
        state = "there is no such file" if probe.kind == "missing" else f"it {probe.state}"
        raise UsageError(
            f"{only!r} ends in {Path(only).suffix} like a config file, but {state}"
            f"{_close_file(only)}; to run a config: {command} CONFIG TASK; if {only!r} is "
            f"the task itself, name the config too: {command} --config {LOCAL_CONFIG} {only!r}"
        )
    return None, only


def agent_overrides(args: argparse.Namespace) -> list[Override]:
    """The overrides the flags of ``args`` stand for, in order (``--no-tools`` first)."""
    from gent_core._config.overrides import Override

    overrides: list[Override] = list(getattr(args, "overrides", None) or [])
    if getattr(args, "no_tools", False):
        overrides.insert(0, Override("tools", [], "--no-tools"))
    return overrides


def load_agent_config(config_file: str | None, args: argparse.Namespace) -> LoadedConfig:
    """The config to use (see the module docstring), with the flags of ``args`` applied.

    Raises:
        ConfigError: A bad config file, or a flag whose value is wrong (naming the flag).
    """
    from gent_core._config import apply_overrides, default_config, load_config
    from gent_core._path_probe import probe_path

    if config_file is not None:
        loaded = load_config(config_file)
    elif probe_path(LOCAL_CONFIG).is_file:
        logger.info("using ./%s (found in the current directory)", LOCAL_CONFIG)
        loaded = load_config(LOCAL_CONFIG)
    else:
        logger.info("no config given and no ./%s: using the built-in agent", LOCAL_CONFIG)
        loaded = default_config()
    return apply_overrides(loaded, agent_overrides(args))


def header_agent_config(
    header: dict[str, object], args: argparse.Namespace, *, where: str, give_config: str
) -> LoadedConfig:
    """The configuration a run's header records (``config``, ``config_file``: a transcript's
    first line, or a logged run's first record), with the flags of ``args`` applied.

    Args:
        header: The ``run`` record.
        args: The command's arguments (their flags change the configuration).
        where: What holds the header, for messages (``the transcript run.jsonl``).
        give_config: The hint saying how to give the config instead.

    Raises:
        GentError: The header records no configuration, or it cannot be rebuilt
            (``ConfigError``: secrets masked and no config file to take them from).
    """
    from gent_core._config import ConfigError, apply_overrides
    from gent_core._config.recorded import config_from_record

    recorded = header.get("config")
    file = header.get("config_file")
    if not isinstance(recorded, dict):
        raise UsageError(
            f"{where} records no configuration (the run was not started from a config)",
            hint=give_config,
        )
    try:
        loaded = config_from_record(
            recorded,
            config_file=file if isinstance(file, str) and file else None,
            source=f"the configuration recorded in {where}",
        )
    except ConfigError as error:
        raise ConfigError(problems=error.problems, hint=give_config) from None
    logger.info("using the configuration recorded in %s", where)
    return apply_overrides(loaded, agent_overrides(args))

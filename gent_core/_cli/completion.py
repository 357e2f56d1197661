"""``gent completion bash|zsh|fish``: the shell completion script, and what it asks gent.

The script is small: on each Tab it runs ``gent __complete SHELL WORD...`` with the words
typed so far, and gent answers from its own argument parser, so completion knows every
command and option (plugin commands included) and the names that are installed: ``-m
<Tab>`` lists the model back ends, ``--format``/``--toolchain`` the formats and tool chains,
``-T``, ``gent call`` and ``gent tools show`` the tools, ``-o``/``--matrix`` the config keys.
Where a file name fits (a config, a transcript), it answers nothing and the shell completes
file names.

Install, once::

    gent completion bash > ~/.local/share/bash-completion/completions/gent
    gent completion zsh > "${fpath[1]}/_gent"        # or any folder on $fpath
    gent completion fish > ~/.config/fish/completions/gent.fish
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

from gent_core._cli.helpformat import HelpFormatter
from gent_core._cli.output import Output

__all__ = ["SHELLS", "add_arguments", "candidates", "complete", "run", "script"]

SHELLS = ("bash", "zsh", "fish")

_BASH = """\
# bash completion for gent (gent completion bash)
_gent_complete() {
    local IFS=$'\\n'
    COMPREPLY=($(gent __complete bash "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _gent_complete gent
"""

_ZSH = """\
#compdef gent
# zsh completion for gent (gent completion zsh)
_gent() {
    local -a found
    found=("${(@f)$(gent __complete zsh "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    if [[ -n "${found[1]}" ]]; then
        _describe -t gent 'gent' found
    else
        _files
    fi
}
if [[ "$funcstack[1]" == "_gent" ]]; then
    _gent "$@"
else
    compdef _gent gent
fi
"""

_FISH = """\
# fish completion for gent (gent completion fish)
function __gent_complete
    set -l words (commandline -opc) (commandline -ct)
    set -l found (gent __complete fish $words[2..-1] 2>/dev/null)
    if test (count $found) -gt 0
        printf '%s\\n' $found
    else
        __fish_complete_path (commandline -ct)
    end
end
complete -c gent -f -a '(__gent_complete)'
"""

_SCRIPTS = {"bash": _BASH, "zsh": _ZSH, "fish": _FISH}

_EXAMPLES = """\
examples:
  gent completion bash > ~/.local/share/bash-completion/completions/gent
  gent completion zsh > "${fpath[1]}/_gent"
  gent completion fish > ~/.config/fish/completions/gent.fish
  eval "$(gent completion bash)"        # this shell only
"""

# Option strings whose value is an installed component's name, by kind.
_COMPONENT_OPTIONS = {
    "-m": "model",
    "--model": "model",
    "--format": "format",
    "--toolchain": "toolchain",
    "-T": "tool",
    "--tool": "tool",
}
# (command, positional dest) whose value is an installed component's name.
_COMPONENT_POSITIONALS = {("call", "name"): "tool", ("show", "name"): "tool"}
_KEY_OPTIONS = {"-o", "--option", "--matrix"}

Candidate = tuple[str, str]
"""A completion and its description."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``gent completion``."""
    parser.description = (
        "Print the completion script of a shell. It asks gent itself what fits where, so it "
        "knows plugin commands and installed plugin names (gent run -m <Tab>)."
    )
    parser.epilog = _EXAMPLES
    parser.formatter_class = HelpFormatter
    parser.add_argument("shell", choices=SHELLS, help="the shell")


def script(shell: str) -> str:
    """The completion script of ``shell`` (bash, zsh or fish)."""
    return _SCRIPTS[shell]


def run(args: argparse.Namespace) -> int:
    """Print the script."""
    Output().write(script(args.shell), clean=False)
    return 0


# --------------------------------------------------------------------------- answering


def _component_names(kind: str) -> list[Candidate]:
    from gent_core._plugins.manager import get_plugin_manager
    from gent_core._plugins.registry import Registry

    registry = Registry.from_plugin_manager(get_plugin_manager())
    return [(name, f"{kind}") for name in registry.names(kind)]  # type: ignore[arg-type]


def _config_keys() -> list[Candidate]:
    from gent_core._config.models import AgentConfig

    return [
        (f"{name}=", (field.description or "").split(".")[0])
        for name, field in AgentConfig.model_fields.items()
    ]


def _first_line(text: str | None) -> str:
    return "" if not text or text == argparse.SUPPRESS else text.split("\n")[0].strip()


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[Any] | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return None


def _positionals(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [
        action
        for action in parser._actions
        if not action.option_strings and not isinstance(action, argparse._SubParsersAction)
    ]


def _positional_at(parser: argparse.ArgumentParser, index: int) -> argparse.Action | None:
    """The positional argument that the ``index``-th positional word fills."""
    for position, action in enumerate(_positionals(parser)):
        if action.nargs in ("*", "+", argparse.REMAINDER) or position == index:
            return action
    return None


def _takes_value(action: argparse.Action) -> bool:
    return action.nargs != 0


def _value_candidates(action: argparse.Action, option: str, command: str) -> list[Candidate]:
    if action.choices:
        return [(str(choice), "") for choice in action.choices]
    kind = _COMPONENT_OPTIONS.get(option) or _COMPONENT_POSITIONALS.get((command, action.dest))
    if kind is not None:
        return _component_names(kind)
    if option in _KEY_OPTIONS:
        return _config_keys()
    return []  # a file name, or free text: the shell completes file names


def candidates(parser: argparse.ArgumentParser, words: Sequence[str]) -> list[Candidate]:
    """What may complete the last of ``words`` (the words after ``gent``; the last one is
    the word being typed, maybe empty).
    """
    typed = list(words) or [""]
    current, before = typed[-1], typed[:-1]
    command = ""
    positional = 0
    pending: tuple[argparse.Action, str] | None = None
    only_positionals = False
    for word in before:
        if pending is not None:
            pending = None
            continue
        if word == "--" and not only_positionals:
            only_positionals = True
            continue
        if word.startswith("-") and len(word) > 1 and not only_positionals:
            option = word.split("=", 1)[0]
            action = parser._option_string_actions.get(option)
            if action is not None and _takes_value(action) and "=" not in word:
                pending = (action, option)
            continue
        subcommands = _subparsers(parser)
        if subcommands is not None and word in subcommands.choices and positional == 0:
            parser, command, positional = subcommands.choices[word], word, 0
            continue
        positional += 1
    found: list[Candidate]
    if pending is not None:
        found = _value_candidates(pending[0], pending[1], command)
    elif current.startswith("-") and not only_positionals:
        found = [
            (option, _first_line(action.help))
            for action in parser._actions
            for option in action.option_strings
            if action.help != argparse.SUPPRESS
        ]
    else:
        subcommands = _subparsers(parser)
        if subcommands is not None and positional == 0:
            helps = {action.dest: action.help for action in subcommands._choices_actions}
            found = [(name, _first_line(helps.get(name))) for name in subcommands.choices]
        else:
            action = _positional_at(parser, positional)
            found = _value_candidates(action, "", command) if action is not None else []
    return [(value, text) for value, text in found if value.startswith(current)]


def _render(shell: str, found: list[Candidate]) -> str:
    if shell == "bash":
        return "".join(f"{value}\n" for value, _ in found)
    if shell == "zsh":  # _describe: "value:description", colons in the value escaped
        lines = []
        for value, text in found:
            escaped = value.replace(":", "\\:")
            lines.append(f"{escaped}:{text}\n" if text else f"{escaped}\n")
        return "".join(lines)
    return "".join(f"{value}\t{text}\n" if text else f"{value}\n" for value, text in found)


def complete(
    arguments: Sequence[str],
    build_parser: Callable[[], argparse.ArgumentParser],
    write: Callable[[str], Any] | None = None,
) -> int:
    """Answer ``gent __complete SHELL WORD...``: one completion per line, in the shell's
    form. It never fails loudly: a problem gives no completions (and exit code 1).

    Args:
        arguments: ``SHELL WORD...`` (the words after ``gent``, the last one being typed).
        build_parser: Builds ``gent``'s argument parser (plugin commands included).
        write: Where the answer goes (standard output by default).
    """
    writer = write or sys.stdout.write
    if not arguments or arguments[0] not in SHELLS:
        return 1
    shell, words = arguments[0], arguments[1:]
    logging.disable(logging.CRITICAL)  # a broken plugin's warning must not garble the line
    try:
        found = candidates(build_parser(), words)
    except Exception:  # noqa: BLE001 - completion offers nothing rather than a traceback
        return 1
    finally:
        logging.disable(logging.NOTSET)
    writer(_render(shell, found))
    return 0

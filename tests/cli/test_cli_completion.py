"""``gent completion bash|zsh|fish`` and the answers gent gives the shell (``gent __complete``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gent_core._cli.completion import SHELLS, candidates, complete, script
from gent_core._cli.main import build_parser, main
from gent_core.testing import PluginSandbox

BIN = Path(sys.executable).parent


def values(*words: str) -> list[str]:
    return [value for value, _ in candidates(build_parser(), list(words))]


def test_commands_then_options(installed: PluginSandbox) -> None:
    assert {"run", "describe", "install", "completion"} <= set(values(""))
    assert values("ru") == ["run"]
    assert {"--model", "-T", "--no-tools", "--verbose", "--no-color"} <= set(values("run", "-"))
    assert values("-") == ["-h", "--help", "--version", "-v", "--verbose", "-q", "--quiet",
                           "--no-color"]  # fmt: skip


def test_installed_names_complete_option_values(installed: PluginSandbox) -> None:
    assert values("run", "--format", "") == ["xml"]
    assert values("run", "--toolchain", "") == ["json", "yaml"]
    assert "scripted" in values("describe", "-m", "")
    assert values("run", "-T", "c") == ["calculator", "current_time"]
    assert values("run", "--tool", "snap") == ["snapshot"]
    assert values("call", "calc") == ["calculator"]
    assert values("tools", "show", "cur") == ["current_time"]
    assert values("run", "-o", "max_") == ["max_steps="]
    assert values("completion", "") == list(SHELLS)


def test_options_already_taking_their_value_are_skipped(installed: PluginSandbox) -> None:
    # "-T calculator" is an option and its value: the next word is the first positional
    assert values("run", "-T", "calculator", "--format", "xml", "") == []
    assert values("run", "--transcript", "") == []  # a file name: the shell completes it


def test_answers_never_fail_loudly(capsys: pytest.CaptureFixture[str]) -> None:
    assert complete(["tcsh", "run"], build_parser) == 1

    def broken() -> None:
        raise RuntimeError("a broken plugin")

    assert complete(["bash", "run"], broken) == 1  # type: ignore[arg-type]
    assert capsys.readouterr() == ("", "")


def test_each_shell_gets_its_own_form(installed: PluginSandbox) -> None:
    written: list[str] = []
    complete(["zsh", "ru"], build_parser, written.append)
    assert written == ["run:run an agent on a task (a config file is optional)\n"]
    written.clear()
    complete(["fish", "ru"], build_parser, written.append)
    assert written == ["run\trun an agent on a task (a config file is optional)\n"]
    written.clear()
    complete(["bash", "ru"], build_parser, written.append)
    assert written == ["run\n"]


@pytest.mark.parametrize("shell", SHELLS)
def test_the_command_prints_the_script(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    out = capsys.readouterr().out
    assert out == script(shell)
    assert "gent __complete " + shell in out


@pytest.mark.parametrize("shell", SHELLS)
def test_the_script_is_valid_for_its_shell(shell: str, tmp_path: Path) -> None:
    program = shutil.which(shell)
    if program is None:
        pytest.skip(f"{shell} is not installed on this machine")
    path = tmp_path / f"gent.{shell}"
    path.write_text(script(shell))
    checked = subprocess.run([program, "-n", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_bash_completes_through_the_installed_command() -> None:
    """The script, sourced in a real bash, asks the real ``gent`` and fills COMPREPLY."""
    bash = shutil.which("bash")
    if bash is None or not (BIN / "gent").exists():
        pytest.skip("needs bash and the gent command")
    probe = (
        "source <(gent completion bash)\n"
        "COMP_WORDS=(gent run --for); COMP_CWORD=2; _gent_complete\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
        "COMP_WORDS=(gent de); COMP_CWORD=1; _gent_complete\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    environ = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [bash, "-c", probe], capture_output=True, text=True, env=environ, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["--format", "describe"]


def _shell(name: str) -> str:
    program = shutil.which(name)
    if program is None or not (BIN / "gent").exists():
        pytest.skip(f"needs {name} and the gent command")
    return program


def _environ() -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def test_zsh_completes_through_the_installed_command() -> None:
    zsh = _shell("zsh")
    # _describe and _files are zsh's completion helpers: here they print what they are given
    probe = (
        "autoload -Uz compinit; compinit -u 2>/dev/null\n"
        "source <(gent completion zsh)\n"
        '_describe() { print -l -- "${(@P)4}" }; _files() { print FILES }\n'
        "words=(gent run --for); CURRENT=3; _gent\n"
        'words=(gent run --transcript ""); CURRENT=4; _gent\n'
    )
    done = subprocess.run(
        [zsh, "-c", probe], capture_output=True, text=True, env=_environ(), timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "--format:how sections are written (xml, markdown...)",
        "FILES",
    ]


def test_fish_completes_through_the_installed_command(tmp_path: Path) -> None:
    fish = _shell("fish")
    (tmp_path / "agent.yaml").write_text("model: scripted\n")
    probe = (
        'gent completion fish | source\ncomplete -C "gent run --for"\ncomplete -C "gent run ag"\n'
    )
    done = subprocess.run(
        [fish, "-c", probe],
        capture_output=True,
        text=True,
        env=_environ(),
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "--format\thow sections are written (xml, markdown...)",
        "agent.yaml",
    ]

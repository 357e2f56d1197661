"""-v/-q on every command (wired to logging), the colour rule, and examples in every --help."""

from __future__ import annotations

import argparse
import io
import logging
from pathlib import Path

import pytest

from gent_core._builtin import COMMANDS as BUILTIN_COMMANDS
from gent_core._cli.colors import color_enabled, rich_console
from gent_core._cli.logging_setup import level_for, logging_for, redact_logs_with
from gent_core._cli.main import build_parser, main
from gent_core.testing import PluginSandbox

SCRIPTED = ["-m", "scripted", "-o", "model.outputs=['<answer>4</answer>']"]


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


# --------------------------------------------------------------------------- verbosity


@pytest.mark.parametrize(
    ("verbosity", "gent", "other"),
    [
        (-2, logging.ERROR, logging.ERROR),
        (-1, logging.ERROR, logging.ERROR),
        (0, logging.WARNING, logging.WARNING),
        (1, logging.INFO, logging.WARNING),
        (2, logging.DEBUG, logging.WARNING),
        (3, logging.DEBUG, logging.DEBUG),
    ],
)
def test_levels(verbosity: int, gent: int, other: int) -> None:
    assert level_for(verbosity) == gent
    assert level_for(verbosity, gent=False) == other


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["run"], False),
        (["run", "-v"], True),
        (["-v", "run"], True),
        (["run", "--verbose"], True),
        (["-v", "run", "-q"], False),  # counted: one -v and one -q cancel out
        (["-vv", "run", "-q"], True),
    ],
)
def test_verbose_before_or_after_the_command(
    installed: PluginSandbox,
    here: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    shown: bool,
) -> None:
    command, *flags = argv[argv.index("run") :]
    before = argv[: argv.index("run")]
    assert main([*before, command, *flags, *SCRIPTED, "--json", "q"]) == 0
    err = capsys.readouterr().err
    assert ("no config given and no ./gent.yaml: using the built-in agent" in err) == shown


def test_quiet_hides_warnings_and_verbose_names_the_logger(
    capsys: pytest.CaptureFixture[str],
) -> None:
    logger = logging.getLogger("gent.test")
    with logging_for(-1):
        logger.warning("hidden")
        logger.error("shown")
    with logging_for(1):
        logger.info("detail")
        logging.getLogger("somelibrary").info("not gent: hidden at -v")
    err = capsys.readouterr().err
    assert "hidden" not in err
    assert "gent: error: shown" in err
    assert "info: gent.test: detail" in err


def test_every_command_takes_the_output_options(installed: PluginSandbox) -> None:
    parser = build_parser(with_plugins=False)
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name in BUILTIN_COMMANDS:
        options = set(commands.choices[name]._option_string_actions)
        assert {"-v", "--verbose", "-q", "--quiet", "--no-color"} <= options, name


def test_log_records_are_redacted_and_safe_for_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    logger = logging.getLogger("gent.test.redaction")
    with logging_for(0):
        redact_logs_with(lambda text: text.replace("sk-secret", "***"))
        logger.warning("key sk-secret in \x1b]0;title\x07 text")
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("failed")
    err = capsys.readouterr().err
    assert "sk-secret" not in err and "gent: warning: key *** in" in err
    assert "\x1b" not in err and "\\x1b]0;title\\x07" in err
    assert "gent: error: failed (ValueError: boom)" in err
    assert "Traceback" not in err  # tracebacks only from -vv on
    with logging_for(2):
        try:
            raise ValueError("deep")
        except ValueError:
            logger.exception("failed again")
    err = capsys.readouterr().err
    assert "error: gent.test.redaction: failed again\nTraceback" in err
    assert "ValueError: deep" in err


def test_logging_leaves_the_root_logger_as_it_was() -> None:
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    with logging_for(2):
        assert root.level == logging.DEBUG
    assert (root.level, root.handlers) == (level, handlers)


# --------------------------------------------------------------------------- colours


@pytest.mark.parametrize(
    ("environ", "no_color", "tty", "expected"),
    [
        ({}, False, True, True),
        ({}, False, False, False),
        ({}, True, True, False),
        ({"NO_COLOR": "1"}, False, True, False),
        ({"NO_COLOR": ""}, False, True, True),  # empty: not set (no-color.org)
        ({"FORCE_COLOR": "1"}, False, False, True),
        ({"FORCE_COLOR": "0"}, False, False, True),  # any non-empty value (force-color.org)
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False, False),
        ({"FORCE_COLOR": "1"}, True, False, False),  # --no-color wins
        ({"TERM": "dumb"}, False, True, False),
    ],
)
def test_the_colour_rule(
    environ: dict[str, str], no_color: bool, tty: bool, expected: bool
) -> None:
    stream = FakeTerminal() if tty else io.StringIO()
    assert color_enabled(stream, no_color=no_color, environ=environ) is expected


def test_the_live_view_follows_the_rule(
    installed: PluginSandbox,
    here: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["run", *SCRIPTED, "q"]) == 0
    assert "\x1b[" not in capsys.readouterr().out  # not a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert main(["run", *SCRIPTED, "q"]) == 0
    assert "\x1b[" in capsys.readouterr().out
    assert main(["--no-color", "run", *SCRIPTED, "q"]) == 0
    assert "\x1b[" not in capsys.readouterr().out
    assert main(["run", "--no-color", *SCRIPTED, "q"]) == 0
    assert "\x1b[" not in capsys.readouterr().out
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["run", *SCRIPTED, "q"]) == 0
    assert "\x1b[" not in capsys.readouterr().out


def test_rich_consoles_follow_the_rule(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.text import Text

    def printed(**options: bool) -> str:
        console = rich_console(**options)
        with console.capture() as capture:
            console.print(Text("cell", style="bold green"))
        return capture.get()

    assert "\x1b[" not in printed()  # not a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" in printed()
    assert "\x1b[" not in printed(no_color=True)
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in printed()


# --------------------------------------------------------------------------- help


@pytest.mark.parametrize("name", sorted(BUILTIN_COMMANDS))
def test_every_help_has_an_example(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([name, "--help"])
    out = capsys.readouterr().out
    assert "\nexamples:\n  gent " in out, out


def test_the_top_level_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "\nexamples:\n  gent run " in capsys.readouterr().out


def test_run_help_shows_the_built_in_agent(capsys: pytest.CaptureFixture[str]) -> None:
    from gent_core._config.default import default_agent_yaml

    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = capsys.readouterr().out
    for line in default_agent_yaml().splitlines():
        if line.strip() and not line.startswith("#"):
            assert line in out

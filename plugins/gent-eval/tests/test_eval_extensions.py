"""Other packages extend ``gent eval`` through its hooks: a check kind (``gent_eval_checks``)
and a suite source (``gent_eval_suite_sources``); and the command itself comes from the
plugin, so disabling the plugin removes it."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from gent_eval import (
    Check,
    CheckContext,
    CheckOutcome,
    Configuration,
    SourceOptions,
    SourceReport,
    SuiteError,
    check_kinds,
    parse_suite,
    suite_sources,
)

from gent_core import hookimpl
from gent_core.testing import PluginSandbox, run_cli


class WordCountCheck(Check):
    """The answer has exactly ``words`` words (a check kind no gent package has)."""

    kind: ClassVar[str] = "word_count"
    short: ClassVar[str] = "words"
    words: int

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        count = len(context.answer_text.split())
        return self.outcome(count == self.words, f"the answer has {count} words")

    def describe(self) -> str:
        return f"answer has {self.words} words"


class CheckPlugin:
    @hookimpl
    def gent_eval_checks(self) -> list[type[Check]]:
        return [WordCountCheck]


class BrokenCheckPlugin:
    @hookimpl
    def gent_eval_checks(self) -> list[type[Check]]:
        raise RuntimeError("the check package is broken")


class FakeEvaluation:
    """A suite source's evaluation: one row per configuration, what it was given recorded."""

    def __init__(self, selector: str, options: SourceOptions) -> None:
        self.name = f"fake:{selector}"
        self.options = options
        self.tasks = 3 if options.limit is None else min(3, options.limit)

    async def run(
        self, configurations: Sequence[Configuration], progress: Callable[[str], None]
    ) -> SourceReport:
        rows = []
        for configuration in configurations:
            progress(f"{configuration.label} done")
            rows.append([configuration.label, str(self.tasks), f"every={self.options.every}"])
        return SourceReport(
            f"gent eval: {self.name}",
            ["configuration", "tasks", "selection"],
            rows,
            data={"suite": self.name, "rows": rows},
            notes=["fake: a source for tests"],
        )


class SourcePlugin:
    @hookimpl
    def gent_eval_suite_sources(self) -> dict[str, Any]:
        return {"fake": FakeEvaluation}


@pytest.fixture
def installed(gent_plugins: PluginSandbox) -> Iterator[PluginSandbox]:
    """The installed plugins (gent-eval among them), as the process's plugin manager."""
    gent_plugins.load_installed()
    with gent_plugins.as_process_manager():
        yield gent_plugins


SUITE = """\
tasks:
  - id: short
    text: Say three words.
    checks: [{word_count: 3}]
"""

AGENT = """\
model: {name: scripted, outputs: ["<answer>one two three</answer>"]}
format: xml
toolchain: json
tools: []
"""


def test_a_plugin_adds_a_check_kind_that_suites_and_the_command_use(
    installed: PluginSandbox,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    info = installed.register(CheckPlugin(), "words")
    assert info.status == "loaded", info.error
    kinds = check_kinds(installed.manager)
    assert kinds["word_count"] is WordCountCheck
    assert {"contains", "number", "tool_called", "python"} <= set(kinds)  # gent-eval's own
    (task,) = parse_suite(SUITE, check_kinds=kinds).tasks
    assert task.checks == (WordCountCheck(words=3),)

    monkeypatch.chdir(tmp_path)
    (tmp_path / "suite.yaml").write_text(SUITE)
    (tmp_path / "agent.yaml").write_text(AGENT)
    arguments = ["eval", "suite.yaml", "agent.yaml", "--no-progress", "--transcripts", "runs"]
    code = run_cli([*arguments, "--report", "r.json"])
    assert code == 0, capsys.readouterr().err
    report = json.loads((tmp_path / "r.json").read_text())
    (run,) = report["runs"]
    assert run["status"] == "passed"
    assert run["checks"] == [{"check": "answer has 3 words", "passed": True, "detail": ""}]


def test_without_the_plugin_the_kind_is_unknown_and_the_error_lists_the_kinds() -> None:
    with pytest.raises(SuiteError) as raised:
        parse_suite(SUITE, source="suite.yaml", check_kinds=check_kinds(PluginSandbox().manager))
    message = str(raised.value)
    assert "unknown check kind 'word_count'" in message
    assert "contains" in message and "tool_called" in message
    with_words = check_kinds(_sandbox_with(CheckPlugin()).manager)
    with pytest.raises(SuiteError, match=r"unknown check kind 'word_cont'.*word_count"):
        parse_suite(SUITE.replace("word_count", "word_cont"), check_kinds=with_words)


def _sandbox_with(*plugins: object) -> PluginSandbox:
    sandbox = PluginSandbox()
    import gent_eval.plugin

    sandbox.register(gent_eval.plugin, "eval")
    for index, plugin in enumerate(plugins):
        info = sandbox.register(plugin, f"extra{index}")
        assert info.status == "loaded", info.error
    return sandbox


def test_a_broken_check_plugin_is_named_and_the_other_kinds_still_work(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sandbox = _sandbox_with(BrokenCheckPlugin(), CheckPlugin())
    with caplog.at_level(logging.WARNING, logger="gent.eval"):
        kinds = check_kinds(sandbox.manager)
    assert kinds["word_count"] is WordCountCheck and "number" in kinds
    failure = "plugin extra0 failed in gent_eval_checks: RuntimeError: the check package is broken"
    assert failure in caplog.text


def test_a_check_kind_taken_already_is_not_replaced(caplog: pytest.LogCaptureFixture) -> None:
    class Impostor(WordCountCheck):
        kind: ClassVar[str] = "number"

    class ImpostorPlugin:
        @hookimpl
        def gent_eval_checks(self) -> list[type[Check]]:
            return [Impostor]

    with caplog.at_level(logging.WARNING, logger="gent.eval"):
        kinds = check_kinds(_sandbox_with(ImpostorPlugin()).manager)
    assert kinds["number"] is not Impostor
    assert "supplies the check kind 'number', which gent_eval.checks.answers supplies" in (
        caplog.text
    )


def test_a_suite_source_runs_through_gent_eval(
    installed: PluginSandbox,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    installed.register(SourcePlugin(), "fakesource")
    assert suite_sources(installed.manager)["fake"] is FakeEvaluation
    monkeypatch.chdir(tmp_path)
    (tmp_path / "agent.yaml").write_text(AGENT)
    arguments = ["eval", "fake:abc", "agent.yaml", "--matrix", "format=xml,markdown"]
    code = run_cli([*arguments, "--every", "2", "--limit", "2", "--report", "r.json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "gent eval: fake:abc" in captured.out
    assert "fake: a source for tests" in captured.out
    assert "format=xml done" in captured.err and "format=markdown done" in captured.err
    report = json.loads((tmp_path / "r.json").read_text())
    assert report == {
        "suite": "fake:abc",
        "rows": [["format=xml", "2", "every=2"], ["format=markdown", "2", "every=2"]],
    }
    assert run_cli(["eval", "fake:abc", "agent.yaml", "--report", "r.md", "--no-progress"]) == 0
    assert "| format" not in (tmp_path / "r.md").read_text()  # no matrix: the config's name
    assert "| agent | 3 | every=None |" in (tmp_path / "r.md").read_text()


def test_unknown_sources_and_options_that_do_not_apply_are_usage_errors(
    installed: PluginSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    installed.register(SourcePlugin(), "fakesource")
    monkeypatch.chdir(tmp_path)
    assert run_cli(["eval", "nope:abc", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "unknown suite source 'nope' in 'nope:abc'" in err
    assert "installed sources: " in err and "fake:" in err and "Traceback" not in err
    assert run_cli(["eval", "fake:abc", "--task", "x*", "--no-progress"]) == 2
    assert "--task applies to suite files, not to suite sources (fake:)" in capsys.readouterr().err
    assert run_cli(["eval", "fake:", "--no-progress"]) == 2
    assert "say what to run after 'fake:'" in capsys.readouterr().err
    assert run_cli(["eval", "missing.yaml", "--no-progress"]) == 2
    assert "suite file not found" in capsys.readouterr().err


def test_baseline_reaches_the_source_and_applies_to_sources_only(
    installed: PluginSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    seen: list[SourceOptions] = []

    class RecordingSource:
        @hookimpl
        def gent_eval_suite_sources(self) -> dict[str, Any]:
            def load(selector: str, options: SourceOptions) -> FakeEvaluation:
                seen.append(options)
                return FakeEvaluation(selector, options)

            return {"fake": load}

    installed.register(RecordingSource(), "recording")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "agent.yaml").write_text(AGENT)
    for given, expected in [
        ([], None),
        (["--baseline", "prompt,native"], ("prompt", "native")),
        (["--baseline", "none"], ()),
    ]:
        assert run_cli(["eval", "fake:abc", "agent.yaml", "--no-progress", *given]) == 0
        assert seen.pop().baselines == expected
    for wrong in ("prompt,,native", "none,prompt"):
        with pytest.raises(SystemExit) as caught:  # argparse's usage error
            run_cli(["eval", "fake:abc", "--baseline", wrong, "--no-progress"])
        assert caught.value.code == 2
        assert "expected comma-separated names (prompt,native) or none" in capsys.readouterr().err
    (tmp_path / "suite.yaml").write_text(SUITE)
    assert run_cli(["eval", "suite.yaml", "--baseline", "prompt", "--no-progress"]) == 2
    assert "--baseline applies to suite sources" in capsys.readouterr().err


def test_disabling_the_plugin_removes_the_command(tmp_path: Path) -> None:
    env = {**os.environ, "GENT_DISABLE_PLUGINS": "eval"}
    command = [sys.executable, "-m", "gent_core"]
    listed = subprocess.run([*command, "--help"], env=env, capture_output=True, text=True)
    assert listed.returncode == 0
    assert " eval " not in listed.stdout and "plugins" in listed.stdout
    refused = subprocess.run(
        [*command, "eval", "x.yaml"], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert refused.returncode == 2
    assert "unknown command 'eval'" in refused.stderr
    enabled = subprocess.run([*command, "--help"], capture_output=True, text=True)
    assert " eval " in enabled.stdout


# --------------------------------------------------------------------------- bounds


def test_matrix_values_beyond_the_bounds_are_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "suite.yaml").write_text("tasks: [{text: hi, checks: [{contains: x}]}]\n")
    code = run_cli(["eval", "suite.yaml", "--matrix", f"max_steps=3,{'9' * 5000}", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--matrix: a value of max_steps: an integer has 5,000 digits" in err
    assert "Traceback" not in err and "set_int_max_str_digits" not in err


def test_a_suite_file_over_the_size_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    suite = tmp_path / "suite.yaml"
    suite.write_text("tasks: [{text: hi, checks: [{contains: x}]}]\n" + "#" * 5000 + "\n")
    monkeypatch.setenv("GENT_MAX_SUITE_SIZE", "4096")
    assert run_cli(["eval", "suite.yaml", "--no-progress"]) == 2
    err = capsys.readouterr().err
    size = suite.stat().st_size
    assert f"suite.yaml: the suite file is {size:,} bytes (4.9 KiB); a suite file may be" in err
    assert "GENT_MAX_SUITE_SIZE" in err and "Traceback" not in err


# --------------------------------------------------------------------------- --pick


PICK_SUITE = """\
tasks:
  - id: short
    text: Say three words.
    checks: [{contains: three}]
"""


def scripted_agent(answer: str) -> str:
    return (
        f"# my agent\nmodel:\n  name: scripted\n  outputs: {json.dumps([answer] * 2)}\n"
        "format: xml\ntoolchain: json\ntools: []\nmax_steps: 2\n"
    )


def test_pick_writes_the_best_configuration_with_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gent_core import load_config

    monkeypatch.chdir(tmp_path)
    (tmp_path / "suite.yaml").write_text(PICK_SUITE)
    (tmp_path / "bad.yaml").write_text(scripted_agent("<answer>one two</answer>"))
    (tmp_path / "good.yaml").write_text(scripted_agent("<answer>one two three</answer>"))
    arguments = ["eval", "suite.yaml", "bad.yaml", "good.yaml", "--no-progress"]
    code = run_cli([*arguments, "--transcripts", "runs", "--matrix", "max_steps=1,3"])
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    code = run_cli([*arguments, "--transcripts", "runs2", "--pick", "best.yaml"])
    assert code == 0
    assert "picked: good -> best.yaml" in capsys.readouterr().err
    text = (tmp_path / "best.yaml").read_text()
    comments = [line for line in text.splitlines() if line.startswith("#")]
    assert comments[0].startswith("# Picked by gent eval --pick: 'good', the best of 2")
    assert any(line.startswith("# good") and "100% (1/1)" in line for line in comments)
    assert any(line.startswith("# bad") and "0% (0/1)" in line for line in comments)
    assert comments[-1] == "# From good.yaml."
    picked = load_config(tmp_path / "best.yaml").config
    assert picked == load_config(tmp_path / "good.yaml").config


def test_pick_sets_the_winning_matrix_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gent_core import load_config

    monkeypatch.chdir(tmp_path)
    (tmp_path / "suite.yaml").write_text(PICK_SUITE)
    # the scripted model writes xml: under markdown its output has no section to answer with
    (tmp_path / "agent.yaml").write_text(scripted_agent("<answer>one two three</answer>"))
    arguments = ["eval", "suite.yaml", "agent.yaml", "--no-progress", "--transcripts", "runs"]
    matrix = ["--matrix", "format=markdown,xml", "--matrix", "model.chunk_size=7"]
    code = run_cli([*arguments, *matrix, "--pick", "p.yaml"])
    assert code == 0, capsys.readouterr().err
    text = (tmp_path / "p.yaml").read_text()
    assert "# From agent.yaml, with format=xml model.chunk_size=7." in text
    picked = load_config(tmp_path / "p.yaml").config
    assert picked.format.name == "xml"
    assert picked.model.options["chunk_size"] == 7


def test_baseline_lines_put_a_sources_baselines_beside_the_winner() -> None:
    from gent_eval.pick import baseline_lines

    assert baseline_lines("a", 0.5, {}) == []
    assert baseline_lines("a", 0.5, {"p": 0.25}) == ["baselines on the same model: p 25%; 'a' 50%."]
    lines = baseline_lines("a", 0.5, {"p": 0.25, "n": 0.75, "q": 0.5})
    assert lines[0] == "baselines on the same model: p 25%, n 75%, q 50%; 'a' 50%."
    assert lines[1].startswith("the baseline 'n' scored higher than every configuration")

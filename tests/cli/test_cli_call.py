"""``gent call``: one tool from the shell, through the real execution engine."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from gent_core._cli.call import UsageError, parse_pairs
from gent_core._cli.main import main
from gent_core.testing import PluginSandbox
from tests.cli.tool_plugin import PIXEL
from tests.strict_json import strict_loads


def test_arguments_as_json(installed: PluginSandbox, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", "calculator", '{"expression": "17 * 23"}']) == 0
    assert capsys.readouterr().out == "391\n"


def test_arguments_as_pairs_parsed_as_json_when_they_parse(
    installed: PluginSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["call", "snapshot", "--arg", "label=cat", "--arg", "notes=2", "--cwd", str(tmp_path)]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert out.startswith('{\n  "label": "cat"\n}\n')
    assert f"[image: image/png, {len(PIXEL)} bytes]" in out
    assert "[clipboard text: 16 characters: 'note 1 about cat']" in out
    assert "[clipboard text: 16 characters: 'note 2 about cat']" in out
    assert "[clipboard file: notes.txt]" in out
    assert (tmp_path / "notes.txt").read_text() == "the notes\n"


def test_a_pair_wins_over_the_json_object(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["call", "calculator", '{"expression": "1"}', "--arg", "expression=2+2"]) == 0
    assert capsys.readouterr().out == "4\n"


def test_pairs() -> None:
    assert parse_pairs(["a=1", "b=x", "c=[1, 2]", "d=", "e=a=b", "f=null"], "--arg") == {
        "a": 1,
        "b": "x",
        "c": [1, 2],
        "d": "",
        "e": "a=b",
        "f": None,
    }
    with pytest.raises(UsageError, match="--arg takes KEY=VALUE, got 'novalue'"):
        parse_pairs(["novalue"], "--arg")


def test_json_output_is_one_strict_object_with_every_channel(
    installed: PluginSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["call", "snapshot", '{"label": "dog"}', "--json", "--cwd", str(tmp_path)])
    assert code == 0
    result = strict_loads(capsys.readouterr().out)
    assert result == {
        "tool": "snapshot",
        "status": "success",
        "output": {"label": "dog"},
        "error": None,
        "error_type": None,
        "media": [{"media_type": "image/png", "bytes": len(PIXEL), "url": None}],
        "clipboard_text": ["note 1 about dog"],
        "clipboard_files": ["notes.txt"],
    }
    assert base64.b64encode(PIXEL)  # the image itself is summarised, not printed


def test_the_working_directory_is_the_current_one_or_cwd(
    installed: PluginSandbox,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["call", "where"]) == 0
    assert capsys.readouterr().out == f"{tmp_path}\n"
    (tmp_path / "sub").mkdir()
    assert main(["call", "where", "--cwd", "sub"]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'sub'}\n"
    assert main(["call", "where", "--cwd", "missing"]) == 2
    assert (
        "--cwd missing: does not exist; expected an existing directory" in capsys.readouterr().err
    )


def test_a_tool_error_exits_1_with_the_model_facing_message(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["call", "calculator", '{"expression": "1/0"}']) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "gent call: tool error: Cannot evaluate '1/0': division by zero.\n"
    assert main(["call", "calculator", '{"expression": "1/0"}', "--json"]) == 1
    result = strict_loads(capsys.readouterr().out)
    assert result["status"] == "error"
    assert result["error_type"] == "CalculatorError"
    assert result["error"] == "Cannot evaluate '1/0': division by zero."


def test_invalid_arguments_are_validated_by_the_engine(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["call", "snapshot", '{"notes": "many"}']) == 1
    err = capsys.readouterr().err
    assert "Invalid arguments for tool 'snapshot'" in err
    assert "Missing required argument 'label'" in err
    assert "Call it as: snapshot(label: string, notes: integer = 1)" in err


def test_the_timeout_applies(installed: PluginSandbox, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["call", "nap", "--arg", "seconds=5", "--timeout", "0.2"]) == 1
    assert "did not finish within 0.2 s" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["call", "calculater"], "no tool named 'calculater'; did you mean 'calculator'?"),
        (["call", "calculator", "{nope"], "ARGS is not valid JSON"),
        (["call", "calculator", "[1]"], "ARGS must be a JSON object"),
        (["call", "calculator", "--arg", "x"], "--arg takes KEY=VALUE"),
        (["call", "calculator", "--option", "a=1"], "tool 'calculator' takes no options"),
        (["call", "greet", "--arg", "who=Ann"], "missing required option 'language'"),
        (["call", "greet", "--option", "lang=en"], "unknown option 'lang'"),
    ],
)
def test_usage_errors_exit_2(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gent call: error:")
    assert message in err


def test_a_tool_class_is_built_with_options(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["call", "greet", "--arg", "who=Ann", "--option", "language=fr", "--option", "excited=true"]
    )
    assert code == 0
    assert capsys.readouterr().out == "Bonjour, Ann!\n"


def test_a_tool_of_a_config_and_of_its_toolsets(
    installed: PluginSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "agent.yaml"
    config.write_text(
        "model: {name: scripted, outputs: []}\nformat: xml\ntoolchain: yaml\n"
        "tools: [where, {notebook: {name: pad}}]\napproval: {deny: [calculator]}\n"
        f"working_directory: {tmp_path}\n"
    )
    assert main(["call", "--config", str(config), "jot", "--arg", "text=milk"]) == 0
    assert capsys.readouterr().out == "noted: milk\n"
    assert main(["call", "--config", str(config), "where"]) == 0
    assert capsys.readouterr().out == f"{tmp_path}\n"
    assert main(["call", "--config", str(config), "calculator"]) == 2
    assert "the config has no tool named 'calculator'; its tools: where, jot" in (
        capsys.readouterr().err
    )
    assert main(["call", "--config", str(config), "where", "--option", "a=1"]) == 2
    assert "--option cannot be used with --config" in capsys.readouterr().err


def test_the_configs_approval_policy_applies(
    installed: PluginSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "agent.yaml"
    config.write_text(
        "model: {name: scripted, outputs: []}\nformat: xml\ntoolchain: json\n"
        "tools: [calculator]\napproval: {deny: [calculator]}\n"
    )
    assert main(["call", "--config", str(config), "calculator", '{"expression": "1"}']) == 1
    assert "The tool 'calculator' is not allowed in this run" in capsys.readouterr().err

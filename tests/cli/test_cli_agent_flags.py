"""``gent run``/``gent describe`` without a config file, with gent.yaml, and with flags."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gent_core._cli.main import main
from gent_core._docs_url import docs_url
from gent_core.testing import PluginSandbox

# The built-in agent's model is the llamacpp plugin's: these tests need it installed (the main
# environment has it; tox's other Pythons do not build llama-cpp-python).
pytestmark = pytest.mark.llama


@pytest.fixture
def shipped(installed: PluginSandbox) -> PluginSandbox:
    """The ``installed`` plugins plus markdown and the local-model back end."""
    import gent_llamacpp.plugin
    import gent_markdown.plugin

    installed.register(gent_markdown.plugin, "markdown")
    installed.register(gent_llamacpp.plugin, "llamacpp")
    return installed


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty current directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def scripted(*outputs: str) -> list[str]:
    """Flags turning the configured agent's model into a scripted one."""
    return ["-m", "scripted", "-o", f"model.outputs={json.dumps(list(outputs))}"]


CALL = '<action>{"tool": "calculator", "args": {"expression": "17*23"}}</action>'


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main(["run", *args, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out) if out else {}


def test_a_task_alone_runs_the_built_in_agent(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, result = run_json(capsys, *scripted(CALL, "<answer>391</answer>"), "What is 17 * 23?")
    assert code == 0
    assert result["answer"] == "391"
    steps = result["steps"]
    assert isinstance(steps, list)
    assert steps[0]["calls"][0]["output"] == 391  # the built-in agent's calculator


def test_describe_shows_the_built_in_agent(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["describe"]) == 0
    out = capsys.readouterr().out
    assert "calculator(" in out and "current_time(" in out
    assert "<thinking>" in out  # xml
    assert "# Grammar (GBNF)" in out  # the local model constrains its output


def test_gent_yaml_in_the_current_directory_wins_over_the_built_in_agent(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "gent.yaml").write_text(
        "model: {name: scripted, outputs: ['<answer>from gent.yaml</answer>']}\ntools: []\n"
    )
    code, result = run_json(capsys, "q")
    assert (code, result["answer"]) == (0, "from gent.yaml")
    other = here / "other.yaml"
    other.write_text("model: {name: scripted, outputs: ['<answer>from other</answer>']}\n")
    code, result = run_json(capsys, str(other), "q")
    assert result["answer"] == "from other"  # an explicit config wins over gent.yaml
    code, result = run_json(capsys, "--config", str(other), "q")
    assert result["answer"] == "from other"
    assert main(["run", "-v", "q", "--json"]) == 0
    assert "using ./gent.yaml" in capsys.readouterr().err


def test_one_existing_yaml_file_is_the_config_and_the_task_is_missing(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "agent.yaml").write_text("model: scripted\n")
    assert main(["run", "agent.yaml"]) == 2
    err = capsys.readouterr().err
    assert "understood 'agent.yaml' as the config file; the TASK is missing" in err
    assert f"see {docs_url('command-line.md')}" in err


def test_a_yaml_name_that_is_no_file_says_both_readings(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "agent.yaml").write_text("model: scripted\n")
    assert main(["run", "agnet.yaml"]) == 2
    err = capsys.readouterr().err
    assert "'agnet.yaml' ends in .yaml like a config file, but there is no such file" in err
    assert "(did you mean 'agent.yaml'?)" in err
    assert "if 'agnet.yaml' is the task itself" in err
    # a task that merely ends in .yaml (it has spaces) is a task
    code, result = run_json(capsys, *scripted("<answer>ok</answer>"), "Summarize notes.yaml")
    assert (code, result["task"]) == (0, "Summarize notes.yaml")


def test_too_many_arguments(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "What", "is", "2+2"]) == 2
    assert "gent run takes [CONFIG] TASK, got 3 arguments" in capsys.readouterr().err


def test_tool_flags_add_and_clear(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = ["-m", "scripted", "-o", "model.outputs=[x]"]
    assert main(["describe", "-T", "snapshot", "-T", "calculator", *model]) == 0
    out = capsys.readouterr().out
    assert all(f"{name}(" in out for name in ("calculator", "current_time", "snapshot"))
    assert out.count("calculator(") == out.count("current_time(")  # not listed twice
    # --no-tools clears the config's tools first, wherever it is written; -T adds
    assert main(["describe", "-T", "snapshot", "--no-tools", *model]) == 0
    out = capsys.readouterr().out
    assert "snapshot(" in out
    assert "calculator(" not in out and "current_time(" not in out


def test_switching_a_component_drops_the_options_of_the_old_one(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = here / "agent.yaml"
    config.write_text("model: {name: scripted, outputs: ['<answer>kept</answer>']}\n")
    _, result = run_json(capsys, str(config), "-m", "scripted", "q")
    assert result["answer"] == "kept"  # the same back end keeps its options
    assert main(["run", str(config), "-m", "llamacpp", "-o", "model.outputs=[x]", "q"]) == 2
    err = capsys.readouterr().err
    assert "invalid llamacpp model options: outputs" in err  # scripted's option is gone...
    assert "(set by -m llamacpp)" in err  # ...and the flag that set the model is named
    # without -o, the scripted model's 'outputs' are dropped with the switch: no error
    assert main(["describe", str(config), "-m", "llamacpp"]) == 0


def test_format_and_toolchain_flags_change_the_prompt(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["describe", "--format", "markdown", "--toolchain", "yaml", "-m", "scripted",
                 "-o", "model.outputs=[x]"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "# thinking" in out
    assert "<thinking>" not in out


def test_a_wrong_value_names_the_flag_not_a_line(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "-o", "max_steps=0", "q"]) == 2
    err = capsys.readouterr().err
    assert "gent run: error: key 'max_steps': expected an integer >= 1, got 0" in err
    assert "(set by -o max_steps=0)" in err
    assert "line" not in err
    assert main(["run", "--format", "xmll", "q"]) == 2
    err = capsys.readouterr().err
    assert "key 'format': no format named 'xmll' (did you mean 'xml'?)" in err
    assert "(set by --format xmll)" in err
    assert f"see {docs_url('configuration.md')}" in err


def test_a_malformed_option_is_a_usage_error_naming_the_flag(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["run", "--option", "max steps=3", "q"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "gent run: error: --option max steps=3: expected a config key" in err


def test_option_values_are_yaml(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, result = run_json(
        capsys,
        *scripted(CALL, CALL, "<answer>x</answer>"),
        "-o",
        "max_steps=2",
        "-o",
        "thinking=false",
        "q",
    )
    assert code == 1
    assert result["stop_reason"] == "max_steps"


def test_quiet_prints_the_answer_alone(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "-q", *scripted("<answer>391</answer>"), "q"]) == 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("391\n", "")
    assert main(["-q", "run", *scripted(CALL), "-o", "max_steps=1", "q"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("gent run: max_steps:")


def test_quiet_prints_a_typed_answer_as_json(
    shipped: PluginSandbox, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "run",
        "-q",
        *scripted('<answer>{"n": "7"}</answer>'),
        "-o",
        "termination={name: json, schema: {type: object, properties: {n: {type: integer}}}}",
        "q",
    ]
    assert main(args) == 0
    assert capsys.readouterr().out == '{"n": 7}\n'

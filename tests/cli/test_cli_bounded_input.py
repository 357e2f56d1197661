"""Input from the command line and from files is read within gent's bounds: a clear error
naming the input, the bound and what is accepted, never a traceback or Python's own advice
(``sys.set_int_max_str_digits()``).

Through the real CLI (``main([...])``): ``gent call`` ARGS and ``--arg``, ``-o`` of ``gent
run``/``gent describe``, and the size limit of config files (``gent eval``'s ``--matrix``
and suite files: gent-eval's ``tests/test_eval_extensions.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, cast

import pytest

from gent_core._cli.main import main
from gent_core._docs_url import docs_url
from gent_core.testing import PluginSandbox

PYTHON_ADVICE = "set_int_max_str_digits"


def nested(levels: int, inner: str = "") -> str:
    return "[" * levels + inner + "]" * levels


def clean(err: str) -> None:
    """No traceback and none of Python's own advice reached the user."""
    assert "Traceback" not in err
    assert "RecursionError" not in err
    assert PYTHON_ADVICE not in err


# --------------------------------------------------------------------------- gent call


def test_call_refuses_deeply_nested_args(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["call", "calculator", '{"expression": ' + nested(3000) + "}"])
    err = capsys.readouterr().err
    assert code == 2
    assert "gent call: error: ARGS nests more than 100 levels deep" in err
    assert "gent accepts values nested at most 100 levels" in err
    assert f"see {docs_url('limits.md')}" in err
    clean(err)


def test_call_refuses_a_deeply_nested_arg_value_a_little_past_the_bound(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    # 150 levels: past the bound but not deep enough for Python's own recursion limit
    code = main(["call", "calculator", "--arg", f"expression={nested(150)}"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--arg expression nests more than 100 levels deep" in err
    clean(err)


def test_call_refuses_nan_in_args(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["call", "calculator", '{"expression": NaN}'])
    err = capsys.readouterr().err
    assert code == 2
    assert "ARGS is not valid JSON: NaN is not a JSON value" in err
    assert "as a string" in err
    clean(err)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (['{"expression": 1e999}'], "ARGS: the number 1e999 is too large to be finite"),
        (['{"expression": ' + "7" * 5000 + "}"], "ARGS: an integer has 5,000 digits"),
        (["--arg", "expression=" + "7" * 4301], "--arg expression: an integer has 4,301 digits"),
    ],
)
def test_call_refuses_numbers_beyond_the_bounds(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code = main(["call", "calculator", *args])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    clean(err)


def test_call_args_at_the_bounds_reach_the_tool(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    # 100 levels is the bound itself: the tool gets the list (and refuses it: not a string)
    assert main(["call", "calculator", "--arg", f"expression={nested(100)}"]) == 1
    assert "expected a string" in capsys.readouterr().err
    # NaN is not JSON: in --arg it stays the text "NaN", which the calculator does not know
    assert main(["call", "calculator", "--arg", "expression=NaN"]) == 1
    assert "unknown name 'NaN'" in capsys.readouterr().err


# --------------------------------------------------------------------------- -o values


@pytest.mark.parametrize("command", ["run", "describe"])
def test_option_values_nested_too_deeply_are_a_usage_error(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        main([command, "-o", f"prompt.append={nested(500)}", "q"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert f"gent {command}: error: -o prompt.append=[[[" in err
    assert "the value of prompt.append nests more than 100 levels deep" in err
    assert nested(500) not in err  # the value is quoted shortened
    clean(err)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("max_steps=" + "9" * 5000, "the value of max_steps: an integer has 5,000 digits"),
        ("model.temperature=.nan", "the value of model.temperature: .nan is not a finite"),
        (f"prompt.append={nested(150)}", "the value at [0][0][0] in the value of prompt.append"),
    ],
)
def test_option_values_beyond_the_bounds_name_the_key(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["describe", "--option", value])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    clean(err)


def test_an_option_value_that_yaml_cannot_build_is_kept_as_text(
    installed: PluginSandbox, capsys: pytest.CaptureFixture[str]
) -> None:
    # 2024-13-45 looks like a YAML timestamp but is no date: it used to stop the command
    assert (
        main(
            [
                "describe",
                "-m",
                "scripted",
                "-o",
                "model.outputs=[]",
                "-o",
                "prompt.append=2024-13-45",
            ]
        )
        == 0
    )
    assert "2024-13-45" in capsys.readouterr().out


@pytest.mark.parametrize("character", ["\x00", "\x07", "\ufffe"])
def test_a_config_with_a_character_yaml_forbids_is_a_config_error(
    character: str, installed: PluginSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # found by tools/hostile_sweep.py: PyYAML refuses these when its reader is made, before
    # the parse the errors were caught around
    config = tmp_path / "bad.yaml"
    config.write_text(f"model: scripted{character}\n", encoding="utf-8")
    for command in (["describe", "--config", str(config)], ["run", str(config), "a task"]):
        code = main(command)
        err = capsys.readouterr().err
        assert code == 2, command
        assert "YAML: unacceptable character" in err, command
        clean(err)


# --------------------------------------------------------------------------- file sizes


def test_a_config_file_over_the_size_limit_is_refused_before_it_is_read(
    installed: PluginSandbox, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "huge.yaml"
    with config.open("wb") as handle:  # sparse: 300 MB that take no disk and no time to make
        handle.write(b"model: scripted\n")
        handle.truncate(300 * 1024 * 1024)
    code = main(["describe", "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{config}: the config file is 314,572,800 bytes (300 MiB)" in err
    assert "a config file may be at most 2,097,152 bytes (2 MiB)" in err
    assert "set GENT_MAX_CONFIG_SIZE to a larger size" in err
    clean(err)


def test_the_config_size_limit_is_changed_by_its_variable(
    installed: PluginSandbox,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = tmp_path / "agent.yaml"
    config.write_text(
        "model: {name: scripted, outputs: []}\nprompt: {append: '" + "x" * 2000 + "'}\n"
    )
    monkeypatch.setenv("GENT_MAX_CONFIG_SIZE", "1K")
    assert main(["describe", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    size = config.stat().st_size
    assert f"is {size:,} bytes (2 KiB); a config file may be at most 1,024 bytes (1 KiB)" in err
    monkeypatch.setenv("GENT_MAX_CONFIG_SIZE", "4K")
    assert main(["describe", "--config", str(config)]) == 0
    monkeypatch.setenv("GENT_MAX_CONFIG_SIZE", "lots")
    assert main(["describe", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "GENT_MAX_CONFIG_SIZE='lots' is not a size; write a number of bytes from 1 to" in err


@pytest.mark.parametrize(
    "variable", ["GENT_MAX_CONFIG_SIZE", "GENT_MAX_TASK_SIZE", "GENT_MAX_TRANSCRIPT_SIZE"]
)
@pytest.mark.parametrize("value", ["99999999999999999999G", "9" * 5000, "65G", "70000000000000"])
def test_a_size_past_the_largest_limit_is_refused_naming_the_variable(
    installed: PluginSandbox,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variable: str,
    value: str,
) -> None:
    """Issue 24: ``GENT_MAX_CONFIG_SIZE=99999999999999999999G`` raised OverflowError (a read
    of that many bytes); a 5,000-digit value is a variant (Python refuses to make such an int).
    """
    config = tmp_path / "agent.yaml"
    config.write_text("model: {name: scripted, outputs: ['<answer>x</answer>']}\n")
    transcript = tmp_path / "run.jsonl"
    transcript.write_text("{}\n")
    monkeypatch.setenv(variable, value)
    monkeypatch.setattr("sys.stdin", _Stdin(b"the task"))
    arguments = {
        "GENT_MAX_CONFIG_SIZE": ["run", str(config), "task"],
        "GENT_MAX_TASK_SIZE": ["run", str(config), "-"],
        "GENT_MAX_TRANSCRIPT_SIZE": ["run", str(config), "--resume", str(transcript)],
    }[variable]
    assert main(arguments) == 2
    err = capsys.readouterr().err
    assert f"{variable}=" in err
    assert "is too large; write a number of bytes from 1 to 68,719,476,736 (64G)" in err
    assert len(err.strip().splitlines()) <= 2
    clean(err)


class _Stdin:
    """Standard input holding ``data`` (not a terminal)."""

    def __init__(self, data: bytes) -> None:
        import io

        self.buffer = io.BytesIO(data)

    def isatty(self) -> bool:
        return False


def test_a_limit_of_64g_reads_a_small_file_without_reserving_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A variant: at the largest limit a small file is read in pieces of at most 1 MiB (a
    single read of limit + 1 bytes reserved that much memory first).
    """
    from gent_core import _bounded
    from gent_core.errors import InputTooLargeError

    sizes: list[int] = []
    real_read = _bounded._read_at_most

    class Counting:
        def __init__(self, handle: IO[bytes]) -> None:
            self.handle = handle

        def read(self, size: int) -> bytes:
            sizes.append(size)
            return self.handle.read(size)

    def counted(handle: IO[bytes], limit: int, expected: int = 0) -> bytes:
        return real_read(cast("IO[bytes]", Counting(handle)), limit, expected)

    monkeypatch.setattr(_bounded, "_read_at_most", counted)
    path = tmp_path / "agent.yaml"
    path.write_bytes(b"x" * 3000)
    data = _bounded.read_file(path, _bounded.CONFIG_FILE, environ={"GENT_MAX_CONFIG_SIZE": "64G"})
    assert data == b"x" * 3000
    assert sizes and max(sizes) <= 1024 * 1024
    with pytest.raises(InputTooLargeError):
        _bounded.read_file(
            "/dev/zero", _bounded.CONFIG_FILE, environ={"GENT_MAX_CONFIG_SIZE": "3M"}
        )
    assert max(sizes) <= 1024 * 1024

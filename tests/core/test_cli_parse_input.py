"""``gent parse`` on input that is not UTF-8 text: exit 2 with a clear message (issue 11, bug 1)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gent_core._cli.main import main
from gent_core.testing import profile_examples
from tests.strict_json import strict_loads

ARGS = ["parse", "--format", "xml", "--sections", "answer"]


def test_invalid_utf8_file_exits_2_naming_the_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "out.txt"
    path.write_bytes(b"<answer>\nok \xff\xfe</answer>")
    assert main([*ARGS, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"gent parse: error: cannot parse {path}: it is not UTF-8 text (invalid byte 0xff at "
        "offset 12, line 2); gent parse reads a model output as UTF-8 text\n"
    )


def test_binary_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert main([*ARGS, str(path)]) == 2
    assert "looks like binary data (a NUL byte at offset 8)" in capsys.readouterr().err


def test_utf8_with_a_byte_order_mark_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "out.txt"
    path.write_bytes("\ufeff<answer>héllo</answer>".encode())
    assert main([*ARGS, str(path)]) == 0
    assert '"héllo"' in capsys.readouterr().out


def run_gent(stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "gent_core._cli.main", *ARGS, "-"]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=120, check=False)


def test_raw_bytes_on_stdin_exit_2_and_never_reach_the_output() -> None:
    done = run_gent(b"<answer>\xc3\x28 \xed\xa0\x80 \x80</answer>")
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"Traceback" not in done.stderr
    assert b"cannot parse standard input: it is not UTF-8 text (invalid byte 0xc3" in done.stderr


def test_utf8_on_stdin_is_parsed() -> None:
    done = run_gent("<answer>€</answer>".encode())
    assert done.returncode == 0, done.stderr
    assert "€".encode() in done.stdout


@settings(profile_examples(200), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(lambda text: text.encode("utf-8", "surrogatepass")),
        st.lists(
            st.sampled_from(
                ["<action>", "</action>", "# Action\n", "{", "[", '"tool": "t"', "NaN", "\x1b"]
            ),
            max_size=30,
        ).map(lambda parts: "".join(parts).encode()),
    ),
    format_name=st.sampled_from(["xml", "markdown"]),
    chain=st.sampled_from(["json", "yaml"]),
)
def test_gent_parse_never_raises_on_any_input(
    data: bytes, format_name: str, chain: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stderr", err)
    args = ["parse", "--format", format_name, "--sections", "thinking,action,answer"]
    code = main([*args, "--toolchain", chain, "-"])
    assert code in (0, 1, 2)
    if code == 0:
        strict_loads(out.getvalue())
    else:
        assert out.getvalue() == "" and "Traceback" not in err.getvalue()

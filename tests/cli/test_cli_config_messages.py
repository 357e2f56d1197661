"""``gent run`` with a config whose component options pydantic refuses: the person reads the
key and what is accepted, never pydantic's own text or a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from gent_core._cli.main import main
from gent_core.testing import PluginSandbox


@pytest.mark.parametrize(
    ("outputs", "expected"),
    [
        ("[1, 2]", "key 'model.outputs.0', plugin 'core': expected a string or a list, got 1"),
        ("abc", "key 'model.outputs', plugin 'core': expected a list, got 'abc'"),
    ],
)
def test_bad_scripted_outputs_are_a_config_error_naming_the_key(
    installed: PluginSandbox,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    outputs: str,
    expected: str,
) -> None:
    config = tmp_path / "agent.yaml"
    config.write_text(f"model: {{name: scripted, outputs: {outputs}}}\n")
    assert main(["run", str(config), "hi"]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert "errors.pydantic.dev" not in err and "ValidationError" not in err
    assert "Traceback" not in err

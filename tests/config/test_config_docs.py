"""docs/configuration.md stays true: its first error example is what gent really says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gent_core._config import AgentConfig, ConfigError, parse_config

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
BLOCK = re.compile(r"^```(yaml|text)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks() -> list[tuple[str, str]]:
    return [(match.group(1), match.group(2)) for match in BLOCK.finditer(DOC.read_text())]


def test_first_error_example_matches_real_output() -> None:
    found = blocks()
    errors = DOC.read_text().split("## Errors", 1)[1]
    yaml_text, text = [body for _, body in BLOCK.findall(errors)][:2]
    with pytest.raises(ConfigError) as caught:
        parse_config(yaml_text, source="agent.yaml", environ={})
    assert str(caught.value) == text.rstrip("\n")
    assert found  # the page has examples at all


def test_every_top_level_key_is_documented() -> None:
    text = DOC.read_text()
    for key in AgentConfig.model_fields:
        assert f"| `{key}" in text, f"{key} is missing from the key table"


def test_main_example_file_is_a_valid_configuration() -> None:
    kind, example = blocks()[0]
    assert kind == "yaml"
    example = example.replace("./workspace", ".")
    loaded = parse_config(example, environ={"OPENAI_API_KEY": "sk-doc-example"})
    assert loaded.config.max_steps == 8
    assert loaded.redacted_dict()["model"]["api_key"] == "***"

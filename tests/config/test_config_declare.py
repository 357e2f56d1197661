"""``tools: [{declare: ...}]``: tools declared from a schema in a config, through ``gent run``
on the scripted model (a dry run), and the errors a bad declaration gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gent_core._agent import Agent
from gent_core._cli.main import main
from gent_core._config import load_config
from gent_core.errors import ConfigError

CALLS = (
    '<thinking>Two lookups.</thinking><action>[{"tool": "math.factorial", "args": '
    '{"number": 5}}, {"tool": "weather.get", "args": {"city": "Paris"}}]</action>'
)

CONFIG = """\
model:
  name: scripted
  outputs: {outputs}
tools:
  - declare:
      name: math.factorial
      description: Calculate the factorial of a number.
      parameters: {{type: dict, properties: {{number: {{type: integer}}}}, required: [number]}}
{more}
"""


def write(tmp_path: Path, outputs: list[str], more: str = "") -> Path:
    path = tmp_path / "agent.yaml"
    path.write_text(CONFIG.format(outputs=json.dumps(outputs), more=more))
    return path


def test_declared_tools_dry_run_with_stub_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file of declarations (an OpenAI tool list) beside one written out; each call gets its
    stub result and the run goes on to the answer."""
    (tmp_path / "tools.json").write_text(
        json.dumps(
            [
                {
                    "type": "function",
                    "function": {
                        "name": "weather.get",
                        "description": "The weather in a city.",
                        "parameters": {
                            "type": "object",
                            "properties": {"city": {"type": "string"}},
                            "required": ["city"],
                        },
                    },
                }
            ]
        )
    )
    more = "  - declare: {file: tools.json, result: {sky: clear}}"
    config = write(tmp_path, [CALLS, "<answer>done</answer>"], more)
    code = main(["run", str(config), "What is 5! and the weather in Paris?", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and result["answer"] == "done"
    calls = result["steps"][0]["calls"]
    assert [(c["tool"], c["args"], c["output"]) for c in calls] == [
        ("math.factorial", {"number": 5}, "OK"),
        ("weather.get", {"city": "Paris"}, {"sky": "clear"}),
    ]
    assert '{"sky": "clear"}' in result["steps"][0]["followup"]


def test_a_declaration_with_stop_records_the_calls_and_stops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write(
        tmp_path,
        ['<action>{"tool": "math.factorial", "args": {"number": 5}}</action>'],
        "",
    )
    text = config.read_text().replace(
        "required: [number]}\n", "required: [number]}\n      stop: true\n"
    )
    config.write_text(text)
    code = main(["run", str(config), "What is 5!?", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 1  # no answer
    assert result["stop_reason"] == "tool_stop"
    assert [(c["tool"], c["args"]) for c in result["steps"][0]["calls"]] == [
        ("math.factorial", {"number": 5})
    ]


def test_describe_shows_declared_tools_by_their_own_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write(tmp_path, [])
    assert main(["describe", str(config)]) == 0
    out = capsys.readouterr().out
    assert "math.factorial(number: integer) — Calculate the factorial of a number." in out


def test_a_declaration_file_is_found_next_to_the_config(tmp_path: Path) -> None:
    folder = tmp_path / "configs"
    folder.mkdir()
    (folder / "tools.yaml").write_text("- name: local.tool\n  description: Found.\n")
    config = folder / "agent.yaml"
    config.write_text(
        "model: {name: scripted, outputs: []}\ntools:\n  - declare: {file: tools.yaml}\n"
    )
    agent = Agent.from_config(load_config(config))
    assert agent.toolchain is not None
    assert [tool.name for tool in agent.toolchain.tools] == ["local.tool"]


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            "  - declare: {file: missing.json}",
            "line 9, key 'tools.1.declare.file': cannot read the tool declarations",
        ),
        (
            "  - declare: {name: x, file: tools.json}",
            "line 9, key 'tools.1': a declaration gives either a tool "
            "({name, description, parameters}) or a file of them ({file: tools.json}), not both",
        ),
        (
            "  - declare: {description: nothing}",
            "not neither",
        ),
        (
            "  - declare: {name: bad name}",
            "line 9, key 'tools.1.declare.name': invalid tool name 'bad name'",
        ),
        (
            "  - declare: {name: y, parameters: {type: object, properties: {a: {type: text}}}}",
            "line 9, key 'tools.1.declare.parameters': the declaration (y): a: unknown type 'text'",
        ),
        (
            "  - declare: {name: math.factorial}",
            "line 9, key 'tools.1.declare.name': tool 'math.factorial' is listed twice "
            "(first as tools.0.declare.name)",
        ),
        ("  - declare: 5", "'declare' needs a mapping"),
        (  # issue 24: read without bound until MemoryError
            "  - declare: {file: /dev/zero}",
            "line 9, key 'tools.1.declare.file': cannot read the tool declarations /dev/zero: "
            "the tool declarations file holds more than 8,388,608 bytes (8 MiB)",
        ),
    ],
)
def test_a_bad_declaration_is_a_config_error_at_its_line(
    tmp_path: Path, entry: str, expected: str
) -> None:
    config = write(tmp_path, [], entry)
    with pytest.raises(ConfigError) as caught:
        Agent.from_config(load_config(config))
    assert expected in str(caught.value)

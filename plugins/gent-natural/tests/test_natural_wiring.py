"""Wiring: the plugin's registrations, the ``natural`` middleware in an agent config, and
``gent convert``."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import sys
from pathlib import Path
from typing import Any

import pytest
from gent_natural import plugin
from gent_natural.middleware import NaturalMiddleware
from natural_helpers import OPENAI_CONVERSATION, conversation

from gent_core import Agent, load_config
from gent_core.errors import ConfigError, GentError
from gent_core.messages import Message, MessageToolCall
from gent_core.testing import PluginSandbox
from gent_core.testing import run_cli as main

AGENT = """\
model:
  name: scripted
  outputs: ['<thinking>I know it.</thinking><answer>Oslo is at -3C.</answer>']
format: xml
toolchain: natural
tools: [calculator]
{natural}
"""


def test_the_plugin_registers_chain_middleware_and_command(gent_plugins: PluginSandbox) -> None:
    gent_plugins.register(plugin, "natural")
    registry = gent_plugins.registry()
    assert registry.names("toolchain") == ["natural"]
    assert registry.names("middleware") == ["natural"]
    assert registry.names("command") == ["convert"]
    middleware = registry.create("middleware", "natural", separator="***")
    assert isinstance(middleware, NaturalMiddleware)
    assert middleware.options.separator == "***"


def test_middleware_writes_a_configured_formats_sections() -> None:
    middleware = NaturalMiddleware(format="markdown")
    messages = conversation()[:5]
    middleware.gent_transform_messages(messages, None)  # type: ignore[arg-type]
    assert messages[2].text.startswith(
        'Let me check both cities.\n# tool_call {name="get_weather"}'
    )
    with pytest.raises(GentError, match="nope"):
        NaturalMiddleware(format="nope")


def test_middleware_options_are_checked() -> None:
    with pytest.raises(GentError, match="unknown natural option"):
        NaturalMiddleware(pretty=True)
    with pytest.raises(GentError, match="accepted: preserve"):
        NaturalMiddleware(role_strategy="robot")


def _run(tmp_path: Path, natural: str, history: list[Message]) -> list[Message]:
    path = tmp_path / "agent.yaml"
    path.write_text(AGENT.format(natural=natural))
    agent = Agent.from_config(load_config(path))
    result = asyncio.run(agent.run("And Oslo?", history=history))
    assert result.ok, result.message
    model: Any = agent.model
    messages: list[Message] = model.requests[0].messages
    return messages


def test_natural_true_turns_a_native_history_into_text(tmp_path: Path) -> None:
    history = conversation()[1:]  # no system message: the agent has its own
    messages = _run(tmp_path, "natural: true", history)
    assert [m.role for m in messages] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert all(not m.tool_calls and m.role != "tool" for m in messages)
    assert messages[2].text.startswith('Let me check both cities.\n<tool_call name="get_weather">')
    assert messages[-1].text.endswith("And Oslo?")


def test_middleware_options_in_the_config(tmp_path: Path) -> None:
    history = [
        Message.user("Weather?"),
        Message.assistant(tool_calls=[MessageToolCall("c", "get_weather", '{"city":"Oslo"}')]),
        Message.tool_result("c", '{"temp":-3}'),
    ]
    natural = (
        "middleware:\n  - {name: natural, pretty_print_json: false, role_strategy: by_content}"
    )
    messages = _run(tmp_path, natural, history)
    assert messages[2].role == "user"
    assert messages[2].text == (
        '<tool_call name="get_weather">\n{"city":"Oslo"}\n</tool_call>\n'
        '<tool_response name="get_weather">\n{"temp":-3}\n</tool_response>'
    )


def test_without_the_middleware_the_history_stays_native(tmp_path: Path) -> None:
    messages = _run(tmp_path, "", conversation()[1:])
    assert any(m.tool_calls for m in messages)


def test_a_bad_middleware_option_is_a_config_error_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text(AGENT.format(natural="natural: {separator: 5}"))
    with pytest.raises(ConfigError) as caught:
        Agent.from_config(load_config(path))
    assert "line 7" in str(caught.value) and "separator" in str(caught.value)


# --------------------------------------------------------------------------- gent convert


def convert(
    arguments: list[str], stdin: str, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> tuple[int, Any, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(["convert", *arguments])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out else None, captured.err


def test_convert_to_text_and_back(capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> None:
    code, text, err = convert(
        ["--to", "text"], json.dumps(OPENAI_CONVERSATION), capsys, monkeypatch
    )
    assert code == 0
    assert [m["role"] for m in text] == ["system", "user", "assistant", "user", "assistant"]
    assert text[2]["content"].startswith("Let me check both cities.\n<tool_call")
    assert "9 messages written as text, 3 passed through unchanged" in err
    code, native, err = convert(["--to", "openai", "-"], json.dumps(text), capsys, monkeypatch)
    assert code == 0
    assert [m["role"] for m in native] == [m["role"] for m in OPENAI_CONVERSATION]
    code, again, _ = convert(["--to", "text"], json.dumps(native), capsys, monkeypatch)
    assert again == text


def test_convert_reads_jsonl_and_a_file_and_takes_the_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in OPENAI_CONVERSATION[1:7]) + "\n\n")
    options = [
        "--no-pretty-print-json",
        "--max-response-length",
        "5",
        "--separator",
        "~~~",
        "--role-strategy",
        "always_user",
        "--metadata-strategy",
        "combine",
    ]
    code, out, _ = convert(["--to", "text", str(path), *options], "", capsys, monkeypatch)
    assert code == 0
    turn = out[1]
    assert turn["role"] == "user"
    assert '{"city":"Rome","unit":"f"}' in turn["content"]
    assert "\n~~~\n" in turn["content"]
    assert "sunny\n[... 5 more characters cut]" in turn["content"]
    code, off, _ = convert(["--to", "text", str(path), "--off"], "", capsys, monkeypatch)
    assert off == OPENAI_CONVERSATION[1:7]


def test_convert_with_a_format_and_tool_checks(
    capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    action = (
        '<action>{"tool": "calculator", "args": {"expression": "2+2"}}</action>\n'
        "<observation>\n<calculator>\n4\n</calculator>\n</observation>\nIt is 4."
    )
    chat = [{"role": "user", "content": "2+2?"}, {"role": "assistant", "content": action}]
    arguments = [
        "--to",
        "openai",
        "--format",
        "xml",
        "--toolchain",
        "json",
        "--tools",
        "calculator",
    ]
    code, out, err = convert(arguments, json.dumps(chat), capsys, monkeypatch)
    assert code == 0, err
    assert out[1]["tool_calls"][0]["function"] == {
        "name": "calculator",
        "arguments": '{"expression": "2+2"}',
    }
    assert out[2] == {
        "role": "tool",
        "content": "4",
        "name": "calculator",
        "tool_call_id": "call_0",
    }
    assert out[3] == {"role": "assistant", "content": "It is 4."}
    bad = [{"role": "assistant", "content": '<tool_call name="calculator">{"x": 1}</tool_call>'}]
    code, out, err = convert(
        ["--to", "openai", "--tools", "calculator"], json.dumps(bad), capsys, monkeypatch
    )
    assert code == 0
    assert "warning: message 0: call call_0 to 'calculator'" in err
    assert out[0]["tool_calls"][0]["function"]["arguments"] == '{"x": 1}'


@pytest.mark.parametrize(
    ("stdin", "arguments", "expected"),
    [
        ("", [], "standard input is empty. Accepted input: a JSON array"),
        ("[{]", [], "standard input is not valid JSON"),
        ('[{"role": "user", "content": NaN}]', [], "NaN is not a JSON value"),
        (
            '{"role": "user", "content": "a"}\n{"role": 1}\n',
            [],
            "standard input, line 2: message 1, field 'role': missing or not a string",
        ),
        ('{"role": "user"}\nnot json\n', [], "standard input, line 2 is not valid JSON"),
        (
            '[{"role": "tool", "content": "x", "tool_calls": [{}]}]',
            [],
            "message 0, field 'tool_calls': only assistant messages have tool calls",
        ),
        ("[]", ["--format", "nope"], "nope"),
        ("[]", ["--to", "openai", "--toolchain", "json"], "--toolchain needs --format"),
        ("[]", ["--to", "openai", "--roles", "robot"], "unknown role(s) robot"),
    ],
)
def test_bad_input_exits_1_with_a_clear_message(
    stdin: str,
    arguments: list[str],
    expected: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: Any,
) -> None:
    if "--to" not in arguments:
        arguments = ["--to", "text", *arguments]
    code, out, err = convert(arguments, stdin, capsys, monkeypatch)
    assert code == 1 and out is None
    assert expected in err
    assert "Traceback" not in err


def test_convert_reports_a_missing_file_and_bytes_that_are_not_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    code, _, err = convert(["--to", "text", str(tmp_path / "nope.json")], "", capsys, monkeypatch)
    assert code == 1 and "cannot read" in err and "nope.json" in err
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"[\xff]")
    code, _, err = convert(["--to", "text", str(binary)], "", capsys, monkeypatch)
    assert code == 1 and "is not UTF-8 text (byte 0xff at offset 1)" in err


def test_convert_passes_an_untransformable_turn_through_with_a_warning(
    capsys: pytest.CaptureFixture[str], monkeypatch: Any, caplog: pytest.LogCaptureFixture
) -> None:
    chat = [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "z", "content": "r"}]
    with caplog.at_level(logging.WARNING):
        code, out, err = convert(["--to", "text"], json.dumps(chat), capsys, monkeypatch)
    assert code == 0 and out == chat
    assert "warning: message 1 passed through unchanged" in err

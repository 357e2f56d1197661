"""``gent mcp-serve`` over stdio answers every request, spoken to in raw JSON-RPC: values JSON-RPC
cannot carry get an error naming them, a line that is not JSON a parse error, a tool raising
KeyboardInterrupt an error result for that call only (issue 17, item 6)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import SERVERS

pytestmark = pytest.mark.slow

SERVE = SERVERS / "serve_with_tools.py"
CONFIG = """\
model: {name: scripted, outputs: []}
format: xml
toolchain: json
tools: [calculator, interrupt_sync, interrupt_async, broken_text]
"""
ANSWER_SECONDS = 60.0  # a bound far beyond any answer's time: only a missing answer hits it


class Wire:
    """Raw JSON-RPC lines to and from a ``gent mcp-serve`` process."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(b"")  # the server closed its output: it ended

    def send_line(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode("utf-8") + b"\n")
        self.process.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_line(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=ANSWER_SECONDS)
        except queue.Empty:
            pytest.fail("gent mcp-serve did not answer")
        if not line:
            pytest.fail(f"gent mcp-serve ended (exit code {self.process.wait()}) without answering")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def call(self, request_id: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": "tools/call",
                "params": {"name": tool, "arguments": arguments},
            }
        )
        return self.receive()


@pytest.fixture
def wire(tmp_path: Path) -> Iterator[Wire]:
    config = tmp_path / "agent.yaml"
    config.write_text(CONFIG)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GENT_")}
    process = subprocess.Popen(
        [sys.executable, str(SERVE), str(config)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment,
    )
    wire = Wire(process)
    try:
        wire.send(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "raw-test", "version": "1"},
                },
            }
        )
        assert "result" in wire.receive()
        wire.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        yield wire
    finally:
        assert process.stdin is not None
        process.stdin.close()
        try:
            process.wait(timeout=ANSWER_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def still_serving(wire: Wire, request_id: int) -> None:
    answer = wire.call(request_id, "calculator", {"expression": "6 * 7"})
    assert answer["id"] == request_id
    assert answer["result"]["content"] == [{"type": "text", "text": "42"}]


def test_a_huge_integer_and_a_lone_surrogate_get_invalid_params_with_the_id(wire: Wire) -> None:
    digits = "9" * 10_000
    wire.send_line(
        '{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "calculator", '
        f'"arguments": {{"expression": {digits}}}}}}}'
    )
    huge = wire.receive()
    assert huge["id"] == 7
    assert huge["error"]["code"] == -32602
    assert "params.arguments.expression is an integer of 10000 digits" in huge["error"]["message"]
    assert "at most 4300 digits" in huge["error"]["message"]

    wire.send_line(
        '{"jsonrpc": "2.0", "id": "s-1", "method": "tools/call", "params": {"name": '
        '"calculator", "arguments": {"expression": "1 + \\ud800"}}}'
    )
    lone = wire.receive()
    assert lone["id"] == "s-1"
    assert lone["error"]["code"] == -32602
    assert (
        "params.arguments.expression holds a lone surrogate (\\ud800)" in lone["error"]["message"]
    )
    still_serving(wire, 8)


def test_unreadable_lines_get_an_error_with_the_id_when_it_can_be_read(wire: Wire) -> None:
    wire.send_line("this is not JSON")
    garbage = wire.receive()
    assert garbage["id"] is None
    assert garbage["error"]["code"] == -32700
    assert garbage["error"]["message"].startswith("Parse error: the message is not JSON")

    wire.send_line('{"jsonrpc": "2.0", "id": ' + "1" * 5000 + ', "method": "tools/list"}')
    huge_id = wire.receive()
    assert huge_id["id"] is None  # the id cannot be carried back
    assert huge_id["error"]["code"] == -32600

    wire.send({"jsonrpc": "1.0", "id": 11, "method": "tools/list"})  # not JSON-RPC 2.0
    wrong = wire.receive()
    assert wrong["id"] == 11
    assert wrong["error"]["code"] == -32600

    # a notification that cannot be read gets no answer: the next answer is the next request's
    wire.send_line('{"jsonrpc": "2.0", "method": "notifications/x", "params": {"n": 1e99999}}')
    still_serving(wire, 12)


@pytest.mark.parametrize("tool", ["interrupt_sync", "interrupt_async"])
def test_a_tool_raising_keyboard_interrupt_fails_only_its_call(wire: Wire, tool: str) -> None:
    answer = wire.call(21, tool, {})
    assert answer["id"] == 21
    result = answer["result"]
    assert result["isError"] is True
    assert result["content"] == [
        {"type": "text", "text": f"Tool {tool!r} failed: KeyboardInterrupt"}
    ]
    still_serving(wire, 22)
    assert wire.process.poll() is None


def test_a_result_json_cannot_hold_is_an_internal_error_for_that_call(wire: Wire) -> None:
    answer = wire.call(31, "broken_text", {})
    assert answer["id"] == 31
    assert answer["error"]["code"] == -32603
    assert "the result could not be written as JSON" in answer["error"]["message"]
    still_serving(wire, 32)


def test_a_request_whose_id_is_an_object_gets_invalid_request_with_id_null(wire: Wire) -> None:
    """The SDK took it for a notification and never answered (issue 24, section 5)."""
    wire.send_line('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}')
    answer = wire.receive()
    assert answer["id"] is None
    assert answer["error"]["code"] == -32600
    assert answer["error"]["message"] == (
        "Invalid Request: the id of a request must be a string or an integer, got an object"
    )
    still_serving(wire, 41)


@pytest.mark.parametrize(
    ("request_id", "kind"),
    [("[1]", "a list"), ("null", "null"), ("true", "a boolean"), ("1.5", "a number that is not")],
)
def test_other_ids_no_response_can_carry_get_invalid_request(
    wire: Wire, request_id: str, kind: str
) -> None:
    wire.send_line(f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/list"}}')
    answer = wire.receive()
    assert (answer["id"], answer["error"]["code"]) == (None, -32600)
    assert f"got {kind}" in answer["error"]["message"]
    still_serving(wire, 42)


def test_nan_in_arguments_is_refused_as_not_json_naming_where(wire: Wire) -> None:
    """The SDK's parser reads NaN; JSON from outside is strict (docs/limits.md)."""
    wire.send_line(
        '{"jsonrpc": "2.0", "id": 51, "method": "tools/call", "params": {"name": "calculator", '
        '"arguments": {"expression": NaN}}}'
    )
    answer = wire.receive()
    assert answer["id"] == 51
    assert answer["error"]["code"] == -32602
    assert answer["error"]["message"] == (
        "Invalid params: params.arguments.expression is NaN, which is not JSON (send a finite "
        "number)"
    )
    still_serving(wire, 52)


@pytest.mark.parametrize("constant", ["Infinity", "-Infinity"])
def test_infinity_anywhere_in_a_request_is_refused(wire: Wire, constant: str) -> None:
    wire.send_line(
        '{"jsonrpc": "2.0", "id": 53, "method": "tools/call", "params": {"name": "calculator", '
        f'"arguments": {{"expression": "1"}}, "_meta": {{"n": [{constant}]}}}}}}'
    )
    answer = wire.receive()
    assert (answer["id"], answer["error"]["code"]) == (53, -32602)
    assert f"params._meta.n[0] is {constant}, which is not JSON" in answer["error"]["message"]
    wire.send_line(f'{{"jsonrpc": "2.0", "id": 54, "method": "ping", "x": {constant}}}')
    answer = wire.receive()
    assert (answer["id"], answer["error"]["code"]) == (54, -32600)
    assert f"is {constant}, which is not JSON" in answer["error"]["message"]
    still_serving(wire, 55)

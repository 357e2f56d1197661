"""A reply the MCP SDK cannot read fails its call at once (issue 24, section 4): a real
server writes a lone surrogate, or ``structuredContent`` nested 5,000 deep, and the model is
told "the server's reply could not be read", not that the tool was slow. The tools' timeout
is an hour, so a call that waited for its reply would hit the test's guard instead."""

from __future__ import annotations

import asyncio

import pytest
from gent_mcp.replies import UNREADABLE, reply_id
from mcp_helpers import PYTHON, SERVERS, action, agent_config, agent_from

from gent_core import RunResult
from gent_core.testing import PluginSandbox

HOSTILE = SERVERS / "hostile_reply_server.py"
ENTRY = f"mcp: {{name: hostile, command: [{PYTHON}, {HOSTILE}]}}"


def run_guarded(sandbox: PluginSandbox, *outputs: str) -> RunResult:
    agent = agent_from(
        sandbox, agent_config(*outputs, tools=[ENTRY], extra="timeouts: {tool: 3600}\n")
    )

    async def scenario() -> RunResult:
        try:  # a guard against a hang (the tools' timeout is an hour), not a speed check
            return await asyncio.wait_for(agent.run("go"), 300)
        finally:
            await agent.aclose()

    return asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.parametrize("tool", ["surrogate", "deep", "deep_id_last"])
def test_an_unreadable_reply_fails_the_call_at_once(sandbox: PluginSandbox, tool: str) -> None:
    result = run_guarded(sandbox, action(tool), action("fine"), "<answer>done</answer>")

    assert result.ok and result.answer == "done"
    failed = result.steps[0].calls[0]
    assert failed.status == "error"
    assert (failed.error or "").startswith(f"Tool {tool!r} failed: {UNREADABLE} (")
    assert "timed out" not in (failed.error or "")
    # The connection goes on: the next call is answered.
    assert result.steps[1].calls[0].output == "fine"


@pytest.mark.slow
def test_a_line_without_an_id_is_dropped_and_the_reply_after_it_is_read(
    sandbox: PluginSandbox,
) -> None:
    result = run_guarded(sandbox, action("noise"), "<answer>done</answer>")
    assert result.steps[0].calls[0].output == "after the noise"


DEEP = '{"a":' * 5000 + "1" + "}" * 5000


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('{"jsonrpc": "2.0", "id": 7, "result": {"x": "\\ud800"}}', 7),
        (f'{{"jsonrpc": "2.0", "result": {{"s": {DEEP}}}, "id": "r-1"}}', "r-1"),
        (f'{{"id": 3, "error": {DEEP}}}', 3),
        ('{"jsonrpc": "2.0", "result": {"t": "a \\" } , tricky"}, "id": 12}', 12),
        # Not a reply: no id to answer.
        (
            f'{{"jsonrpc": "2.0", "id": 4, "method": "sampling/createMessage", "params": {DEEP}}}',
            None,
        ),
        ('{"jsonrpc": "2.0", "method": "notifications/message"}', None),
        ('{"jsonrpc": "2.0", "id": 5}', None),
        ('{"jsonrpc": "2.0", "id": true, "result": {}}', None),
        ('{"jsonrpc": "2.0", "id": [1], "result": {}}', None),
        ("not JSON at all", None),
        ('{"id": 6, "result": {"unclosed": [1, 2}', None),
        ("[]", None),
        ("", None),
    ],
)
def test_the_id_of_an_unreadable_reply_is_read_without_parsing_the_rest(
    line: str, expected: object
) -> None:
    assert reply_id(line) == expected

"""Patterns in a server's output schemas: the SDK would match them with Python's re on the
event loop, so gent leaves out the schemas holding one (issue 17, item 3)."""

from __future__ import annotations

from typing import Any

import pytest
from gent_mcp.output_schemas import has_pattern
from mcp_helpers import PYTHON, SERVERS, action, agent_config, agent_from, run_and_close

from gent_core.testing import PluginSandbox


@pytest.mark.slow  # starts a server
def test_a_servers_output_schema_pattern_never_hangs_a_call(sandbox: PluginSandbox) -> None:
    """The SDK checks structured results against the output schema with Python's re: gent
    leaves out the schemas holding patterns, so a catastrophic one cannot stop the run (the
    check of a schema without pattern stays)."""
    server = SERVERS / "patterned_server.py"
    agent = agent_from(
        sandbox,
        agent_config(
            action("coded"),
            action("plain"),
            "<answer>done</answer>",
            tools=[f"mcp: {{name: patterned, command: [{PYTHON}, {server}]}}"],
        ),
    )
    result = run_and_close(agent)
    assert result.ok, result.message
    coded, plain = (step.calls[0] for step in result.steps[:2])
    assert coded.output == {"code": "a" * 100 + "b"}
    assert plain.output == {"code": "abc"}


@pytest.mark.parametrize(
    ("schema", "holds"),
    [
        ({"type": "object", "properties": {"code": {"type": "string", "pattern": "^a+$"}}}, True),
        ({"type": "object", "patternProperties": {"^x": {"type": "integer"}}}, True),
        ({"anyOf": [{"type": "null"}, {"items": {"pattern": "b"}}]}, True),
        ({"type": "object", "properties": {"pattern": {"type": "string"}}}, False),
        ({"type": "object", "properties": {"code": {"type": "string"}}}, False),
    ],
)
def test_which_output_schemas_hold_a_pattern(schema: dict[str, Any], holds: bool) -> None:
    assert has_pattern(schema) is holds

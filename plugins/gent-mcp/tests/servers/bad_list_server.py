"""An MCP "server" over stdio whose answers are not valid MCP.

``python bad_list_server.py``: ``tools/list`` lists a tool whose name is a number and a tool
with no name, neither with an input schema. ``python bad_list_server.py --bad-call``: the
tool list is valid (one tool, ``odd``), but ``tools/call`` answers with a text content that
has no text. It speaks just enough JSON-RPC to get there.
"""

from __future__ import annotations

import json
import sys

BAD_CALL = "--bad-call" in sys.argv
GOOD_LIST = [{"name": "odd", "description": "Answer oddly.", "inputSchema": {"type": "object"}}]

for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue  # a notification
    method = message.get("method")
    result: dict[str, object] = {}
    if method == "initialize":
        result = {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "bad-list", "version": "1"},
        }
    elif method == "tools/list":
        bad_list = [{"name": 5}, {"description": "a tool with no name"}]
        result = {"tools": GOOD_LIST if BAD_CALL else bad_list}
    elif method == "tools/call":
        result = {"content": [{"type": "text"}]}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)

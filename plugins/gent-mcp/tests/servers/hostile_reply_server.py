"""A raw MCP server over stdio (no SDK: it writes what no SDK would) whose tools answer with
replies an MCP client cannot parse.

Tools:
* ``surrogate``: a text result holding a lone surrogate (``"\\ud800"``, valid JSON text that
  no UTF-8 string can hold);
* ``deep``: ``structuredContent`` nested 5,000 deep, the id first;
* ``deep_id_last``: the same, the id written after the result;
* ``noise``: a line of garbage (no id to read) before a normal answer;
* ``fine``: a normal answer, to show the connection still works.

Run as ``python hostile_reply_server.py``.
"""

from __future__ import annotations

import json
import sys

TOOLS = ["surrogate", "deep", "deep_id_last", "noise", "fine"]
DEPTH = 5000


def write(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def result(request_id: object, value: dict[str, object]) -> None:
    write(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": value}))


def text(value: str) -> dict[str, object]:
    return {"content": [{"type": "text", "text": value}], "isError": False}


def call(request_id: object, name: str) -> None:
    rid = json.dumps(request_id)
    deep = '{"a":' * DEPTH + "1" + "}" * DEPTH
    if name == "surrogate":
        write(
            f'{{"jsonrpc": "2.0", "id": {rid}, "result": {{"content": [{{"type": "text", '
            f'"text": "bad \\ud800 text"}}], "isError": false}}}}'
        )
    elif name == "deep":
        write(
            f'{{"jsonrpc": "2.0", "id": {rid}, "result": {{"content": [], '
            f'"structuredContent": {deep}, "isError": false}}}}'
        )
    elif name == "deep_id_last":
        write(
            f'{{"jsonrpc": "2.0", "result": {{"content": [], "structuredContent": {deep}, '
            f'"isError": false}}, "id": {rid}}}'
        )
    elif name == "noise":
        write("this is not JSON-RPC")
        result(request_id, text("after the noise"))
    else:
        result(request_id, text("fine"))


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        method = message.get("method")
        request_id = message.get("id")
        if request_id is None:
            continue  # a notification
        if method == "initialize":
            version = message["params"]["protocolVersion"]
            result(
                request_id,
                {
                    "protocolVersion": version,
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "hostile", "version": "1"},
                },
            )
        elif method == "tools/list":
            tools = [
                {
                    "name": name,
                    "description": f"The {name} tool.",
                    "inputSchema": {"type": "object"},
                }
                for name in TOOLS
            ]
            result(request_id, {"tools": tools})
        elif method == "tools/call":
            call(request_id, message["params"]["name"])
        else:
            write(
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": request_id,
                        "error": {"code": -32601, "message": f"unknown method {method}"},
                    }
                )
            )


if __name__ == "__main__":
    main()

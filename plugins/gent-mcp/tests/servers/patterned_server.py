"""A real MCP server whose tool's output schema holds a pattern that backtracks for hours on
the result it returns (``^(a|aa)+$`` on 100 "a" and a "b"), and one without a pattern."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

server = MCPServer("patterned")


class Coded(BaseModel):
    code: str = Field(pattern=r"^(a|aa)+$")


class Plain(BaseModel):
    code: str


@server.tool(description="A code (not matching its schema's pattern, slowly).")
def coded() -> Coded:
    return Coded.model_construct(code="a" * 100 + "b")


@server.tool(description="A code, under a schema without a pattern.")
def plain() -> Plain:
    return Plain(code="abc")


if __name__ == "__main__":
    server.run("stdio")

"""The contract of a tool chain's ``parse`` (:class:`~gent_core.toolchain.ToolChain`), for
fuzz targets.

``parse`` returns a list of calls or raises a :class:`~gent_core.errors.ParseError` (what
every shipped chain documents: cut-off calls, invalid JSON/YAML/Python, missing tool names).
Every call names a tool, has a unique id, and arguments that are plain JSON values within
gent's bounds. The calls read, written back with the chain's own ``format_calls``, read back
the same (also surrounded by line ends, as a format hands a section over).
"""

from __future__ import annotations

from fuzz.targets.contract import check_args
from gent_core.errors import ParseError
from gent_core.toolchain import ToolCall, ToolChain

__all__ = ["check_chain", "pairs"]


def pairs(calls: list[ToolCall]) -> list[tuple[str, object]]:
    """What a round trip keeps: each call's tool and arguments."""
    return [(call.tool, call.args) for call in calls]


def check_calls(calls: object) -> list[ToolCall]:
    """``parse`` gave a list of well-formed calls within bounds."""
    assert isinstance(calls, list), f"parse returned {type(calls).__name__}"
    for index, call in enumerate(calls):
        assert isinstance(call, ToolCall), f"call {index} is {type(call).__name__}"
        assert isinstance(call.tool, str) and call.tool.strip(), f"call {index}: no tool name"
        check_args(call.args, f"call {index}")
    ids = [call.id for call in calls]
    assert len(set(ids)) == len(ids), f"call ids repeat: {ids}"
    return calls


def check_chain(chain: ToolChain, text: str) -> None:
    """Parse ``text`` and check the calls and their round trip."""
    try:
        calls = check_calls(chain.parse(text))
    except ParseError:
        return
    if not calls:
        return
    written = chain.format_calls(calls)
    for framed in (written, f"\n{written}\n"):
        again = check_calls(chain.parse(framed))
        assert pairs(again) == pairs(calls), f"written back as {framed!r}"

"""ToolResult: wrapping plain values, passing results through, failures and channels."""

from __future__ import annotations

from pathlib import Path

from gent_core.errors import ToolExecutionError
from gent_core.messages import ImagePart
from gent_core.tools import ToolResult


def test_wrap_plain_values() -> None:
    for value in ("text", 42, {"a": 1}, None, [1, 2]):
        result = ToolResult.wrap(value)
        assert result.ok
        assert result.status == "success"
        assert result.output == value
        assert result.media == [] and result.clipboard_text == [] and result.clipboard_files == []


def test_wrap_passes_results_through() -> None:
    original = ToolResult(output="x", clipboard_text=["note"])
    assert ToolResult.wrap(original) is original


def test_media_and_clipboard_channels() -> None:
    image = ImagePart(b"\xff\xd8", media_type="image/jpeg")
    result = ToolResult(output="see image", media=[image], clipboard_text=["t"]).with_files(
        ["out.txt", Path("dir/b.txt")]
    )
    assert result.media[0].media_type == "image/jpeg"
    assert result.clipboard_files == [Path("out.txt"), Path("dir/b.txt")]


def test_failure() -> None:
    result = ToolResult.failure("went wrong", tool="t")
    assert not result.ok
    assert isinstance(result.error, ToolExecutionError)
    assert result.error.location.tool == "t"

"""Unit tests of gent-mcp's own logic: options, names, write hints, and the mapping of results
in both directions (no server is started here)."""

from __future__ import annotations

import argparse
import base64
from pathlib import Path

import mcp_types as types
import pytest
from gent_mcp.options import MCPOptions
from gent_mcp.results import to_tool_result
from gent_mcp.serve import mcp_tool_name, to_call_tool_result
from gent_mcp.serve_command import parse_address
from gent_mcp.toolset import MCPToolset, declares_writes, gent_tool_name

from gent_core import ConfigError
from gent_core.errors import Location, ToolExecutionError
from gent_core.messages import ImagePart
from gent_core.testing import PluginSandbox
from gent_core.tools.result import ToolResult

PIXEL = b"\x89PNG\r\n\x1a\nfake"


# --------------------------------------------------------------------------- options


def test_a_command_string_is_split_like_a_shell() -> None:
    options = MCPOptions(name="git", command="python -m 'mcp_server_git' --repository .")  # type: ignore[arg-type]
    assert options.command == ["python", "-m", "mcp_server_git", "--repository", "."]
    assert options.transport == "stdio"
    assert options.target() == "python -m mcp_server_git --repository ."


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "exactly one of 'command'"),
        ({"command": ["x"], "url": "http://h/mcp"}, "exactly one of 'command'"),
        ({"command": []}, "must name a program"),
        ({"url": "ftp://h/mcp"}, "http:// or https://"),
        ({"command": ["x"], "headers": {"A": "b"}}, "'headers' apply to 'url' servers only"),
        ({"command": ["x"], "startup_timeout": 0}, "startup_timeout"),
        ({"command": ["x"], "writes": "maybe"}, "writes"),
        ({"command": ["x"], "commmand": ["y"]}, "commmand"),
    ],
)
def test_bad_options_are_config_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        MCPToolset(**options)
    assert message in str(caught.value)


def test_bad_options_in_a_config_name_the_line(sandbox: PluginSandbox) -> None:
    from mcp_helpers import agent_from

    text = "model: scripted\nformat: xml\ntoolchain: json\ntools:\n  - mcp: {name: x}\n"
    with pytest.raises(ConfigError) as caught:
        agent_from(sandbox, text)
    assert "line 5" in str(caught.value)
    assert "exactly one of 'command'" in str(caught.value)


def test_describe_names_the_server_and_its_command() -> None:
    toolset = MCPToolset(name="git", command=["python", "-m", "mcp_server_git"])
    assert toolset.describe() == "mcp git (stdio: python -m mcp_server_git)"
    assert MCPToolset(url="http://127.0.0.1:9/mcp").describe() == (
        "mcp ? (http: http://127.0.0.1:9/mcp)"
    )


# --------------------------------------------------------------------------- names and hints


@pytest.mark.parametrize(
    ("remote", "name"),
    [
        ("git_status", "git_status"),
        ("dotted.name", "dotted.name"),
        ("git.status.short", "git.status.short"),
        ("a.9x", "a_9x"),
        ("a..b", "a__b"),
        ("9lives", "_9lives"),
        ("a" * 100, "a" * 64),
        ("with space", "with_space"),
    ],
)
def test_mcp_tool_names_become_valid_gent_names(remote: str, name: str) -> None:
    assert gent_tool_name(remote) == name


@pytest.mark.parametrize(
    ("annotations", "writes"),
    [
        (None, False),
        (types.ToolAnnotations(), False),
        (types.ToolAnnotations(read_only_hint=True), False),
        (types.ToolAnnotations(read_only_hint=True, destructive_hint=True), False),
        (types.ToolAnnotations(read_only_hint=False), True),
        (types.ToolAnnotations(read_only_hint=False, destructive_hint=False), True),
        (types.ToolAnnotations(destructive_hint=True), True),
        (types.ToolAnnotations(title="x", idempotent_hint=True), False),
    ],
)
def test_write_hints(annotations: types.ToolAnnotations | None, writes: bool) -> None:
    assert declares_writes(annotations) is writes


def test_gent_names_become_mcp_names() -> None:
    assert mcp_tool_name("git:git_status") == "git.git_status"
    assert mcp_tool_name("calculator") == "calculator"


@pytest.mark.parametrize("text", ["8000", "host:", ":80", "host:port", "h:70000"])
def test_bad_http_addresses_are_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="HOST:PORT"):
        parse_address(text)


def test_http_addresses() -> None:
    assert parse_address("127.0.0.1:8000") == ("127.0.0.1", 8000)
    assert parse_address("[::1]:9") == ("::1", 9)


# --------------------------------------------------------------------------- MCP -> gent


def result_of(*content: object, **fields: object) -> types.CallToolResult:
    return types.CallToolResult(content=list(content), **fields)  # type: ignore[arg-type]


def mapped(result: types.CallToolResult, inline_limit: int = 100) -> ToolResult:
    return to_tool_result(result, tool="t", server="s", inline_limit=inline_limit)


def test_one_text_block_is_the_output() -> None:
    assert mapped(result_of(types.TextContent(text="hello"))).output == "hello"


def test_text_blocks_and_notes_are_joined_in_order() -> None:
    result = mapped(
        result_of(
            types.TextContent(text="one"),
            types.ResourceLink(name="doc", uri="https://example.invalid/doc", mime_type="a/b"),
            types.TextContent(text="two"),
        )
    )
    assert result.output == "one\n\n[resource link: doc — https://example.invalid/doc (a/b)]\n\ntwo"


def test_structured_content_is_the_raw_output_and_its_text_copy_is_dropped() -> None:
    result = mapped(
        result_of(
            types.TextContent(text='{"a": 1}'),
            types.ResourceLink(name="doc", uri="https://example.invalid/doc"),
            structured_content={"a": 1},
        )
    )
    assert result.output == {"a": 1}
    assert result.clipboard_text == ["[resource link: doc — https://example.invalid/doc]"]


def test_images_become_media() -> None:
    encoded = base64.b64encode(PIXEL).decode()
    result = mapped(result_of(types.ImageContent(data=encoded, mime_type="image/png")))
    assert result.media == [ImagePart(PIXEL, "image/png")]
    assert result.output == ""


def test_an_image_with_bad_base64_is_reported_not_raised() -> None:
    result = mapped(result_of(types.ImageContent(data="%%%", mime_type="image/png")))
    assert result.media == []
    assert "could not be decoded" in result.output


def test_short_text_resources_are_inline_and_long_ones_go_to_the_clipboard() -> None:
    short = types.TextResourceContents(uri="file:///a.txt", text="short")
    long = types.TextResourceContents(uri="file:///b.txt", text="x" * 101)
    result = mapped(
        result_of(types.EmbeddedResource(resource=short), types.EmbeddedResource(resource=long))
    )
    assert "[resource file:///a.txt]\nshort" in result.output
    assert "[resource file:///b.txt (101 characters) added to the clipboard]" in result.output
    assert result.clipboard_text == ["[resource file:///b.txt]\n" + "x" * 101]


def test_binary_resources_are_described_or_shown_as_images() -> None:
    blob = types.BlobResourceContents(
        uri="file:///a.bin", mime_type="application/zip", blob=base64.b64encode(b"1234").decode()
    )
    image = types.BlobResourceContents(
        uri="file:///a.png", mime_type="image/png", blob=base64.b64encode(PIXEL).decode()
    )
    result = mapped(
        result_of(types.EmbeddedResource(resource=blob), types.EmbeddedResource(resource=image))
    )
    assert result.output == "[binary resource file:///a.bin (application/zip, 4 bytes) not shown]"
    assert result.media == [ImagePart(PIXEL, "image/png")]


def test_audio_is_left_out_with_a_note() -> None:
    audio = types.AudioContent(data=base64.b64encode(b"RIFF").decode(), mime_type="audio/wav")
    assert "audio (audio/wav" in mapped(result_of(audio)).output


def test_is_error_becomes_an_error_result_with_the_servers_text() -> None:
    result = mapped(result_of(types.TextContent(text="no such city"), is_error=True))
    assert not result.ok
    assert isinstance(result.error, ToolExecutionError)
    assert result.error.model_message == "Tool 't' failed: no such city"
    assert "MCP server 's'" in str(result.error)


def test_is_error_without_text_still_says_something() -> None:
    result = mapped(result_of(is_error=True))
    assert result.error is not None
    assert "without a message" in result.error.model_message


# --------------------------------------------------------------------------- gent -> MCP


def test_a_string_output_is_one_text_block(tmp_path: Path) -> None:
    served = to_call_tool_result(ToolResult(output="hi"), tmp_path)
    assert served.content == [types.TextContent(text="hi")]
    assert served.structured_content is None
    assert not served.is_error


def test_an_object_output_is_json_text_and_structured_content(tmp_path: Path) -> None:
    served = to_call_tool_result(ToolResult(output={"a": [1, 2]}), tmp_path)
    assert served.content == [types.TextContent(text='{"a": [1, 2]}')]
    assert served.structured_content == {"a": [1, 2]}


def test_a_number_output_is_text_only(tmp_path: Path) -> None:
    served = to_call_tool_result(ToolResult(output=391), tmp_path)
    assert served.content == [types.TextContent(text="391")]
    assert served.structured_content is None


def test_media_and_clipboard_become_images_and_resources(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("the notes")
    (tmp_path / "blob.bin").write_bytes(b"\xff\xfe\x00")
    result = ToolResult(
        output="done",
        media=[ImagePart(PIXEL, "image/png")],
        clipboard_text=["put aside"],
        clipboard_files=[Path("notes.txt"), Path("blob.bin")],
    )
    content = to_call_tool_result(result, tmp_path).content
    assert content[0] == types.TextContent(text="done")
    assert content[1] == types.ImageContent(
        data=base64.b64encode(PIXEL).decode(), mime_type="image/png"
    )
    assert content[2] == types.EmbeddedResource(
        resource=types.TextResourceContents(
            uri="gent://clipboard/1", mime_type="text/plain", text="put aside"
        )
    )
    assert isinstance(content[3], types.EmbeddedResource)
    assert content[3].resource.uri == (tmp_path / "notes.txt").resolve().as_uri()
    assert isinstance(content[3].resource, types.TextResourceContents)
    assert content[3].resource.text == "the notes"
    assert isinstance(content[4], types.ResourceLink)  # not UTF-8 text: linked
    assert content[4].name == "blob.bin"
    assert content[4].size == 3


def test_an_error_result_is_is_error_with_the_model_message(tmp_path: Path) -> None:
    error = ToolExecutionError(
        "boom for the programmer", location=Location(tool="t"), model_message="Boom."
    )
    served = to_call_tool_result(ToolResult.failure(error), tmp_path)
    assert served.is_error
    assert served.content == [types.TextContent(text="Boom.")]

"""Messages, content parts, parse results and error texts."""

from __future__ import annotations

from gent_core.errors import GentError, Location, NoSectionsFoundError, UnknownToolError
from gent_core.messages import ImagePart, Message, TextPart
from gent_core.sections import ParsedSection, ParseResult


def test_message_text_and_images() -> None:
    image = ImagePart(b"\x89PNG", "image/png")
    message = Message.user([TextPart("look: "), image, TextPart("ok")])
    assert message.text == "look: ok"
    assert message.images == (image,)
    assert image.data_url() == "data:image/png;base64,iVBORw=="


def test_parse_result_accessors() -> None:
    result = ParseResult(
        (
            ParsedSection("thinking", "a"),
            ParsedSection("action", "b"),
            ParsedSection("thinking", "c", complete=False),
        ),
        outside="preamble",
    )
    assert result.get("thinking") == ["a", "c"]
    assert result.as_dict() == {"thinking": ["a", "c"], "action": ["b"]}
    assert result.first("action") == ParsedSection("action", "b")
    assert result.truncated == ParsedSection("thinking", "c", complete=False)
    assert "action" in result and "answer" not in result
    assert len(result) == 3


def test_error_carries_location_and_both_texts() -> None:
    error = GentError(
        "bad value",
        location=Location(file="agent.yaml", line=3, column=5, key="tools.0"),
        model_message="for the model",
        hint="Accepted: a list of names.",
    )
    assert str(error) == (
        "bad value (file agent.yaml, line 3, column 5, key 'tools.0')\nAccepted: a list of names."
    )
    assert error.model_message == "for the model\nAccepted: a list of names."


def test_specific_errors_explain_what_is_accepted() -> None:
    unknown = UnknownToolError("serch", ["search", "calculator"])
    assert unknown.model_message == "Unknown tool 'serch'. Available tools: search, calculator."
    assert unknown.location.tool == "serch"
    missing = NoSectionsFoundError(["action", "answer"], format_name="xml", example="<answer>")
    assert "Expected one of: action, answer." in missing.model_message
    assert "<answer>" in missing.model_message

"""Every case of the corpus of model outputs is a test (see ``tests/corpus/README.md``).

Each ``<format>-<chain>/<case>.txt`` is parsed as the agent parses an output: the format
splits it into sections, the chain reads the action's calls from the text as written, and
the answer is the answer section's content. The result must match the sibling
``<case>.expected.json``: the sections in order, whether the last one was cut off, then the
calls, the answer or the error (its type, and a fragment of its message for the model).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gent_json import JSONToolChain
from gent_markdown import MarkdownFormat
from gent_xml import XMLFormat
from gent_yaml import YAMLToolChain

from gent_core.errors import GentError
from gent_core.formats import TextFormat
from gent_core.testing import KIT_TOOLS
from gent_core.toolchain import ToolChain

CORPUS = Path(__file__).resolve().parent
NAMES = ["thinking", "action", "answer"]
FORMATS: dict[str, type[TextFormat]] = {"xml": XMLFormat, "markdown": MarkdownFormat}
CHAINS: dict[str, type[ToolChain]] = {"json": JSONToolChain, "yaml": YAMLToolChain}
KINDS = {
    "code-fence",
    "prose-with-braces",
    "python-dict",
    "several-calls",
    "truncated",
    "tags-inside-strings",
    "section-words",
    "thinking-with-calls",
    "mixed-case",
    "stop-leftovers",
    "no-sections",
    "well-formed",
}
CASES = sorted(CORPUS.glob("*-*/*.txt"))


def read(path: Path) -> tuple[str, dict[str, Any]]:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    return path.read_text(encoding="utf-8"), expected


def outcome(text: str, fmt: TextFormat, chain: ToolChain) -> dict[str, Any]:
    """What parsing ``text`` gives, in the shape of an expected file."""
    try:
        parsed = fmt.parse(text, NAMES)
    except GentError as error:
        return {"error": error}
    found: dict[str, Any] = {
        "sections": [section.name for section in parsed],
        "truncated": parsed.truncated is not None,
    }
    action = parsed.first("action")
    if action is not None:
        try:
            found["calls"] = [
                {"tool": call.tool, "args": call.args} for call in chain.parse(action.untrimmed)
            ]
        except GentError as error:
            found["error"] = error
    answer = parsed.first("answer")
    if answer is not None:
        found["answer"] = answer.content
    return found


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_the_output_parses_as_expected(path: Path) -> None:
    text, expected = read(path)
    format_name, chain_name = path.parent.name.split("-")
    got = outcome(text, FORMATS[format_name](), CHAINS[chain_name](KIT_TOOLS))
    error = got.pop("error", None)
    if "error" in expected:
        assert error is not None, f"expected {expected['error']['type']}, got {got}"
        assert type(error).__name__ == expected["error"]["type"], repr(error)
        assert expected["error"]["message"] in error.model_message, error.model_message
    else:
        assert error is None, f"unexpected {type(error).__name__}: {error}"
    assert got.get("sections", []) == expected.get("sections", [])
    assert got.get("truncated", False) == expected.get("truncated", False)
    for key in ("calls", "answer"):
        assert got.get(key) == expected.get(key), key


def test_the_corpus_covers_every_kind_in_every_format_and_chain() -> None:
    assert len(CASES) >= 60
    for path in CASES:
        _, expected = read(path)
        assert expected["kind"] in KINDS, path
        assert expected.get("source"), f"{path}: say where such output comes from"
    combos = {path.parent.name for path in CASES}
    assert combos == {f"{f}-{c}" for f in FORMATS for c in CHAINS}
    for combo in combos:
        assert len([p for p in CASES if p.parent.name == combo]) >= 15, combo

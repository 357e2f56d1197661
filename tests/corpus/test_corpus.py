"""Every case of the corpus of model outputs is a test (see ``tests/corpus/README.md``).

Each ``<format>-<chain>/<case>.txt`` is parsed as the agent parses an output
(:func:`tests.corpus.reading.read_output`): the format splits it into sections, the chain
reads the action's calls from the text as written, and the answer is the answer section's
content. The result must match the sibling ``<case>.expected.json``: the sections in order,
whether the last one was cut off, then the calls, the answer or the error (its type, and a
fragment of its message for the model), and what the agent reads in it (``reading``: an
action, an answer, or an unusable output).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gent_json import JSONToolChain
from gent_markdown import MarkdownFormat
from gent_pythonic import PythonicToolChain
from gent_xml import XMLFormat
from gent_yaml import YAMLToolChain

from gent_core.formats import TextFormat
from gent_core.toolchain import ToolChain
from tests.corpus.reading import chain_tools, read_output

CORPUS = Path(__file__).resolve().parent
FORMATS: dict[str, type[TextFormat]] = {"xml": XMLFormat, "markdown": MarkdownFormat}
CHAINS: dict[str, type[ToolChain]] = {
    "json": JSONToolChain,
    "yaml": YAMLToolChain,
    "pythonic": PythonicToolChain,
}
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
    "collected",
}
READINGS = {"action", "answer", "unusable"}
CASES = sorted(CORPUS.glob("*-*/*.txt"))


def read(path: Path) -> tuple[str, dict[str, Any]]:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    return path.read_text(encoding="utf-8"), expected


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_the_output_parses_as_expected(path: Path) -> None:
    text, expected = read(path)
    format_name, chain_name = path.parent.name.split("-")
    chain = CHAINS[chain_name](chain_tools(expected.get("tools")))
    got = read_output(text, FORMATS[format_name](), chain, expected.get("finish_reason"))
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
    assert got["reading"] == expected["reading"]


def test_the_corpus_covers_every_kind_in_every_format_and_chain() -> None:
    assert len(CASES) >= 60
    for path in CASES:
        _, expected = read(path)
        assert expected["kind"] in KINDS, path
        assert expected.get("source"), f"{path}: say where such output comes from"
        assert expected["reading"] in READINGS, path
    combos = {path.parent.name for path in CASES}
    assert combos == {f"{f}-{c}" for f in FORMATS for c in CHAINS}
    for combo in combos:
        assert len([p for p in CASES if p.parent.name == combo]) >= 15, combo


def test_the_collected_outputs_come_from_both_kinds_of_model() -> None:
    """Several hundred verbatim outputs: the bundled base model and an instruct model, in
    every format.
    """
    models: dict[tuple[str, str], int] = {}
    for path in CASES:
        _, expected = read(path)
        if expected["kind"] == "collected":
            key = (expected["model"], path.parent.name.split("-")[0])
            models[key] = models.get(key, 0) + 1
    assert sum(models.values()) >= 300, models
    for model in {model for model, _ in models}:
        for format_name in FORMATS:
            assert models.get((model, format_name), 0) >= 20, (model, format_name, models)

"""Render structured output, perturb it, parse it back (every shipped format x chain).

An output is rendered by the components' own writers: a thinking section, then an action
(calls written by the chain's ``format_calls``) or an answer, put together by the format's
``format_section``. Then it is perturbed:

* **meaning-preserving**: the case of section names, white space between sections, around
  the output and in the delimiters (``</action >``, ``#   Answer :``), prose before the
  sections (and after them in xml, where text outside sections is ignored), and any
  chunking of the stream. It must parse to the original sections and calls;
* **truncation at every point**: every prefix of the output must parse to the sections
  before the cut unchanged, calls that are the original calls' prefix (for chains that
  can tell a cut call), or a documented error.

Documented errors, per parser (and nothing else may be raised):

=====================  ====================================================================
``xml``, ``markdown``  ``NoSectionsFoundError`` (``AmbiguousSectionError`` in xml's strict
                       mode, not used here)
``json``               ``TruncatedCallError``, ``InvalidJSONError``, ``MissingToolNameError``
``yaml``               ``TruncatedCallError``, ``InvalidYAMLError``, ``MissingToolNameError``
``natural``            ``TruncatedCallError``, ``InvalidJSONError``, ``MissingToolNameError``
``pythonic``           ``TruncatedCallError``, ``PythonCallError``
=====================  ====================================================================

All of them are :class:`~gent_core.errors.ParseError` subclasses. The yaml chain cannot tell
every cut call (a YAML mapping has no closing delimiter; see its conformance test): the
agent never runs calls from an output the back end reports as cut off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from gent_json import JSONToolChain
from gent_markdown import MarkdownFormat
from gent_natural.chain import NaturalToolChain
from gent_pythonic import PythonCallError, PythonicToolChain
from gent_xml import XMLFormat
from gent_yaml import YAMLToolChain
from hypothesis import given
from hypothesis import strategies as st

from gent_core.errors import (
    InvalidJSONError,
    InvalidYAMLError,
    MissingToolNameError,
    NoSectionsFoundError,
    ParseError,
    TruncatedCallError,
)
from gent_core.formats import TextFormat
from gent_core.sections import ParseResult
from gent_core.testing import stream_parse
from gent_core.testing._conformance.chains import call_lists
from gent_core.toolchain import ToolCall, ToolChain
from tests.properties.profiles import FEWER, PROPERTIES

NAMES = ["thinking", "action", "answer"]

FORMATS: dict[str, Callable[[], TextFormat]] = {"xml": XMLFormat, "markdown": MarkdownFormat}
CHAINS: dict[str, Callable[[], ToolChain]] = {
    "json": JSONToolChain,
    "yaml": YAMLToolChain,
    "natural": NaturalToolChain,
    "pythonic": PythonicToolChain,
}
DOCUMENTED: dict[str, tuple[type[ParseError], ...]] = {
    "json": (TruncatedCallError, InvalidJSONError, MissingToolNameError),
    "yaml": (TruncatedCallError, InvalidYAMLError, MissingToolNameError),
    "natural": (TruncatedCallError, InvalidJSONError, MissingToolNameError),
    "pythonic": (TruncatedCallError, PythonCallError),
}
DETECTS_TRUNCATION = {"json": True, "yaml": False, "natural": True, "pythonic": True}
SETUPS = [(f, c) for f in FORMATS for c in CHAINS]

# Prose that cannot read as a delimiter in either format: no '<', '#', fences or line starts.
PROSE = st.text(
    st.characters(
        codec="utf-8", exclude_characters="<>#`~\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
    ),
    min_size=1,
    max_size=60,
).filter(str.strip)
TEXT = st.text(st.characters(codec="utf-8"), min_size=1, max_size=80).filter(str.strip)


def pairs(calls: list[ToolCall]) -> list[tuple[str, Any]]:
    return [(call.tool, call.args) for call in calls]


@st.composite
def outputs(draw: st.DrawFn, chain: ToolChain) -> tuple[list[tuple[str, str]], list[ToolCall]]:
    """Sections (name, content) of one output: thinking, then an action or an answer."""
    sections = [("thinking", draw(TEXT, label="thinking"))]
    calls: list[ToolCall] = []
    if draw(st.booleans()):
        calls = draw(call_lists(), label="calls")
        sections.append(("action", chain.format_calls(calls)))
    else:
        sections.append(("answer", draw(TEXT, label="answer")))
    return sections, calls


def vary_case(draw: st.DrawFn, name: str) -> str:
    return "".join(c.upper() if draw(st.booleans()) else c for c in name)


def render(draw: st.DrawFn, fmt: TextFormat, sections: list[tuple[str, str]]) -> str:
    """Write the sections with every meaning-preserving perturbation drawn."""
    written = []
    for name, content in sections:
        spelled = vary_case(draw, name)
        text = fmt.format_section(spelled, content)
        if isinstance(fmt, XMLFormat) and draw(st.booleans()):
            closing = f"</{spelled}>"
            assert text.endswith(closing)
            text = text[: -len(closing)] + f"</{spelled}{' ' * draw(st.integers(1, 3))}>"
        if isinstance(fmt, MarkdownFormat) and draw(st.booleans()):
            header, rest = text.split("\n", 1)
            assert header == f"# {spelled}"
            spaces = " " * draw(st.integers(1, 3))
            ending = draw(st.sampled_from(["", " ", " :", ":"]))
            text = f"#{spaces}{spelled}{ending}\n{rest}"
        written.append(text)
    gaps = [draw(st.sampled_from(["\n", "\n\n", "\n \n", "\n\t\n\n"])) for _ in written[1:]]
    text = written[0] + "".join(gap + part for gap, part in zip(gaps, written[1:], strict=True))
    if draw(st.booleans()):
        text = draw(PROSE, label="prose before") + "\n\n" + text
    if isinstance(fmt, XMLFormat) and draw(st.booleans()):
        text += "\n" + draw(PROSE, label="prose after")  # outside every section
    return (
        draw(st.sampled_from(["", "\n", "  \n"]))
        + text
        + draw(st.sampled_from(["", "\n", " \n\n"]))
    )


def chunks(draw: st.DrawFn, text: str) -> list[str]:
    sizes = draw(st.lists(st.integers(1, 9), max_size=40), label="chunk sizes")
    out, position = [], 0
    for size in sizes:
        out.append(text[position : position + size])
        position += size
    return [*out, text[position:]]


def check_same(
    result: ParseResult,
    sections: list[tuple[str, str]],
    chain: ToolChain,
    calls: list[ToolCall],
    text: str,
) -> None:
    assert [(s.name, s.content) for s in result.sections] == [
        (name, content.strip()) for name, content in sections
    ], text
    assert all(section.complete for section in result.sections), text
    action = result.first("action")
    if action is not None:
        assert pairs(chain.parse(action.untrimmed)) == pairs(calls), text


@pytest.mark.parametrize(("format_name", "chain_name"), SETUPS)
@PROPERTIES
@given(data=st.data())
def test_a_meaning_preserving_perturbation_parses_to_the_original(
    format_name: str, chain_name: str, data: st.DataObject
) -> None:
    fmt, chain = FORMATS[format_name](), CHAINS[chain_name]()
    sections, calls = data.draw(outputs(chain))
    text = data.draw(st.composite(lambda draw: render(draw, fmt, sections))(), label="output")
    check_same(fmt.parse(text, NAMES), sections, chain, calls, text)
    pieces = data.draw(st.composite(lambda draw: chunks(draw, text))())
    _, streamed = stream_parse(fmt, NAMES, pieces)
    check_same(streamed, sections, chain, calls, text)


@pytest.mark.parametrize(("format_name", "chain_name"), SETUPS)
@FEWER
@given(data=st.data())
def test_every_cut_parses_to_what_came_before_it_or_a_documented_error(
    format_name: str, chain_name: str, data: st.DataObject
) -> None:
    fmt, chain = FORMATS[format_name](), CHAINS[chain_name]()
    sections, calls = data.draw(outputs(chain))
    text = "\n".join(fmt.format_section(name, content) for name, content in sections)
    for cut in range(len(text) + 1):
        prefix = text[:cut]
        try:
            result = fmt.parse(prefix, NAMES)
        except NoSectionsFoundError:
            continue
        found = result.sections
        assert len(found) <= len(sections), prefix
        for index, section in enumerate(found):
            name, content = sections[index]
            assert section.name == name, prefix
            if index < len(found) - 1 or cut == len(text):
                assert section.content == content.strip(), prefix
        last = found[-1]
        if last.name != "action":
            continue
        try:
            read = chain.parse(last.untrimmed)
        except DOCUMENTED[chain_name]:
            continue
        if DETECTS_TRUNCATION[chain_name]:  # only complete calls, in order
            assert pairs(read) == pairs(calls)[: len(read)], prefix
        if cut == len(text):
            assert pairs(read) == pairs(calls), prefix

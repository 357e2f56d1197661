"""``ChainConformance``: the checks every :class:`~gent_core.toolchain.ToolChain` must pass."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any, ClassVar

import hypothesis.strategies as st
import pytest
from hypothesis import given

from gent_core._grammar.builder import GrammarBuilder
from gent_core._grammar.check import check_gbnf
from gent_core._grammar.match import GrammarMatcher
from gent_core._grammar.sample import sample
from gent_core._guidance import guidance_calls
from gent_core.errors import ParseError
from gent_core.testing._conformance.settings import kit_settings
from gent_core.testing._conformance.tools import KIT_TOOLS
from gent_core.toolchain import ToolCall, ToolChain
from gent_core.tools.base import Tool

__all__ = ["ChainConformance", "call_lists"]

_SETTINGS = kit_settings()
_PLACEHOLDER = re.compile(r"^<[^<>]*>$")
_TEXT = st.text(st.characters(codec="utf-8"), max_size=30)
_KEYS = st.from_regex(r"[a-z_][a-z0-9_]{0,10}", fullmatch=True)
# Tool names may hold dots (``math.factorial``): every chain writes and reads them as they are.
_TOOL_NAMES = st.from_regex(r"t_[a-z0-9_]{1,10}(\.[a-z_][a-z0-9_]{0,6}){0,2}", fullmatch=True)
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**15), 10**15)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT
    | st.sampled_from(["", " lead", "trail ", "a\nb", "a\nb\n", "x\n\n", "1.10", "yes", "null"])
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=8,
)


def call_lists(min_size: int = 1, max_size: int = 3) -> st.SearchStrategy[list[ToolCall]]:
    """Lists of calls to tools the chain does not know, with any JSON-like arguments."""
    call = st.builds(
        lambda tool, args: ToolCall(tool, args),
        _TOOL_NAMES,
        st.dictionaries(_KEYS, _VALUES, max_size=4),
    )
    return st.lists(call, min_size=min_size, max_size=max_size)


def _pairs(calls: Sequence[ToolCall]) -> list[tuple[str, Any]]:
    return [(call.tool, call.args) for call in calls]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


class ChainConformance:
    """Checks a tool chain against the :class:`~gent_core.toolchain.ToolChain` contract.

    Subclass it in a test module (name the subclass ``Test...``) and implement
    :meth:`make_chain`; optionally set the class attributes.

    Attributes:
        tools: The tools given to the chain (:data:`~gent_core.testing.KIT_TOOLS`).
        documented_errors: What :meth:`~gent_core.toolchain.ToolChain.parse` may raise
            (:class:`~gent_core.errors.ParseError` and its subclasses by default).
        detects_truncation: Whether every cut of a written call is an error (or gives only
            the complete calls before the cut). Set it to ``False`` only for a syntax where a
            cut can read as a shorter valid call, and say why in :attr:`truncation_note`.
        truncation_note: Why the syntax cannot detect every cut (required when
            :attr:`detects_truncation` is ``False``).
    """

    tools: ClassVar[Sequence[Tool]] = KIT_TOOLS
    documented_errors: ClassVar[tuple[type[Exception], ...]] = (ParseError,)
    detects_truncation: ClassVar[bool] = True
    truncation_note: ClassVar[str] = ""

    def make_chain(self, tools: Sequence[Tool]) -> ToolChain:
        """Return the chain under test, with ``tools``."""
        raise NotImplementedError("implement make_chain(tools) to return the chain under test")

    def _chain(self) -> ToolChain:
        return self.make_chain(list(self.tools))

    # ------------------------------------------------------------------ round trip

    @_SETTINGS
    @given(calls=call_lists(min_size=0))
    def test_parse_reads_back_what_format_calls_wrote(self, calls: list[ToolCall]) -> None:
        """``parse(format_calls(calls))`` gives the same tools and arguments, also with white space
        around (as a format hands it over).
        """
        chain = self._chain()
        written = chain.format_calls(calls)
        assert _pairs(chain.parse(written)) == _pairs(calls), written
        # A format hands the section's text over untrimmed.
        assert _pairs(chain.parse(f"\n{written}\n")) == _pairs(calls), written

    def test_example_calls_round_trip(self) -> None:
        """The example calls, together and one by one, read back unchanged."""
        chain = self._chain()
        examples = chain.example_calls()
        assert _pairs(chain.parse(chain.format_calls(examples))) == _pairs(examples)
        for call in examples:
            assert _pairs(chain.parse(chain.format_calls([call]))) == _pairs([call])

    # ------------------------------------------------------------------ truncation and errors

    def _check_cuts(self, chain: ToolChain, calls: Sequence[ToolCall]) -> None:
        written = chain.format_calls(calls)
        stripped = written.rstrip()
        step = max(1, len(stripped) // 150)
        for cut in range(1, len(stripped), step):
            prefix = stripped[:cut]
            try:
                found = chain.parse(prefix)
            except self.documented_errors:
                continue
            if self.detects_truncation:
                expected = _pairs(calls)[: len(found)]
                assert _pairs(found) == expected, f"a cut call was returned from:\n{prefix}"

    @kit_settings(0.25)
    @given(calls=call_lists())
    def test_a_truncated_call_is_never_returned(self, calls: list[ToolCall]) -> None:
        """Every cut of written calls is a documented error or gives only complete calls (unless the
        syntax documents why it cannot tell).
        """
        if not self.detects_truncation:
            assert self.truncation_note.strip(), (
                "set truncation_note to say why this syntax cannot detect a cut call"
            )
        chain = self._chain()
        self._check_cuts(chain, calls)
        self._check_cuts(chain, chain.example_calls())

    @_SETTINGS
    @given(data=st.data())
    def test_no_input_raises_anything_but_documented_errors(self, data: st.DataObject) -> None:
        """No text makes ``parse`` raise anything but the documented errors."""
        chain = self._chain()
        written = chain.format_calls(chain.example_calls() or [ToolCall("t_x", {"a": 1})])
        pieces = sorted({written[i : i + 3] for i in range(0, len(written), 3)})
        text = data.draw(
            st.lists(st.sampled_from(pieces) | _TEXT, max_size=12).map("".join), label="text"
        )
        try:
            found = chain.parse(text)
        except self.documented_errors:
            return
        assert isinstance(found, list) and all(isinstance(call, ToolCall) for call in found)

    # ------------------------------------------------------------------ examples and guidance

    def test_example_calls_are_concrete_and_valid(self) -> None:
        """Example calls name the chain's tools, validate against their schemas and hold no
        placeholders.
        """
        chain = self._chain()
        examples = chain.example_calls()
        assert examples, "example_calls() gives nothing although the chain has tools"
        known = {tool.name: tool for tool in chain.tools}
        for call in examples:
            assert call.tool in known, f"example call of unknown tool {call.tool!r}"
            known[call.tool].validate_arguments(call.args)
            placeholders = [text for text in _strings(call.args) if _PLACEHOLDER.match(text)]
            assert not placeholders, f"placeholder values in an example: {placeholders}"

    def test_guidance_shows_one_call_several_calls_and_every_tool(self) -> None:
        """The guidance shows, written with ``format_calls``, one call and several calls in one
        action (:func:`gent_core._guidance.guidance_calls`, or the chain's own
        ``example_calls()``), and names every tool.
        """
        chain = self._chain()
        guidance = chain.guidance
        shown = [guidance_calls(chain)]
        if len(chain.example_calls()) > 1:
            shown.append(chain.example_calls()[:2])
        assert any(
            chain.format_calls(calls[:1]).strip() in guidance
            and chain.format_calls(calls).strip() in guidance
            for calls in shown
        ), "the guidance does not show one call and two calls written with format_calls"
        for tool in chain.tools:
            assert tool.name in guidance, f"the guidance does not list {tool.name!r}"

    def test_without_tools_nothing_is_offered(self) -> None:
        """Without tools there are no example calls, and an empty list of calls reads back empty."""
        chain = self.make_chain([])
        assert isinstance(chain.guidance, str)
        assert chain.example_calls() == []
        assert chain.parse(chain.format_calls([])) == []

    # ------------------------------------------------------------------ grammar

    def _grammar(self, chain: ToolChain, avoid: Sequence[str] = ()) -> str:
        builder = GrammarBuilder(avoid=avoid)
        rule = chain.grammar_calls(builder)
        if rule is None:
            pytest.skip("the chain offers no grammar (its section is unconstrained)")
        text = builder.build(rule).text
        check_gbnf(text)
        return text

    def test_the_grammar_accepts_the_example_calls(self) -> None:
        """The chain's grammar (also with texts to avoid) accepts the written example calls."""
        chain = self._chain()
        examples = chain.example_calls()
        for avoid in ((), ("</action>",)):
            matcher = GrammarMatcher(self._grammar(chain, avoid))
            for calls in (examples, *([call] for call in examples)):
                written = chain.format_calls(calls)
                assert matcher.matches(written), f"the grammar refuses:\n{written}"

    def test_every_output_of_the_grammar_parses_into_valid_calls(self) -> None:
        """Random outputs of the chain's grammar parse into calls of known tools with valid
        arguments.
        """
        chain = self._chain()
        grammar = self._grammar(chain)
        known = {tool.name: tool for tool in chain.tools}
        rng = random.Random(20240501)
        for _ in range(60):
            written = sample(grammar, rng, max_repeat=3)
            calls = chain.parse(written)
            assert calls, f"the grammar allows an action without calls:\n{written}"
            for call in calls:
                assert call.tool in known, written
                known[call.tool].validate_arguments(call.args)

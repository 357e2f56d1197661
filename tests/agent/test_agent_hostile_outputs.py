"""Whole runs on the scripted model fed arbitrary and hostile text never raise out of
``Agent.run``, and their ``--json`` serialization, transcript and live view are always strict
JSON / terminal-safe (issue 11: the agent-level property)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from gent_json import JSONToolChain
from gent_markdown import MarkdownFormat
from gent_natural.chain import NaturalToolChain
from gent_pythonic import PythonicToolChain
from gent_xml.format import XMLFormat
from gent_yaml import YAMLToolChain
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from gent_core._agent import Agent
from gent_core._cli.live import LiveView
from gent_core._config.secrets import Redactor
from gent_core._serialize import write_json
from gent_core._terminations.typed import JSONTermination
from gent_core._transcript.lines import load_transcript
from gent_core.context import Limits
from gent_core.testing import ScriptedModel
from gent_core.tools import ToolResult, tool
from tests.properties.profiles import examples
from tests.strict_json import strict_loads


@tool
def echo(value: Any = None) -> Any:
    """Return the value it was given (so hostile arguments come back as outputs)."""
    return value


@tool
def note(text: Any = "") -> ToolResult:
    """Put the text on the clipboard."""
    return ToolResult(output="noted", clipboard_text=[str(text)])


class Answer(BaseModel):
    value: Any = None


def nested(levels: int, opener: str = "[", closer: str = "]") -> str:
    return opener * levels + closer * levels


HOSTILE_VALUES = st.sampled_from(
    [
        "NaN",
        "Infinity",
        "-Infinity",
        "1e999",
        "9" * 5000,
        "0x" + "f" * 4000,
        ".nan",
        nested(150),
        nested(5000),
        '{"a": ' * 120 + "1" + "}" * 120,
        '"\\ud800\\udfff\\u0000\\u001b[2J"',
        '"\x1b]0;title\x07\x9b\u202e"',
        "[" * 50,
        '"unterminated',
        "True",
        "None",
        "'single'",
        "{'a': [1, 2,],}",
        "-",
        "",
        # values that parse, and must come back out as strict JSON and terminal-safe text
        "1" * 4300,
        nested(99),
        "12345678901234567890",
        "-0.0",
        "1e308",
        '"secret-token"',
        '"\\u001b]8;;http://evil\\u001b\\\\link \\u009b2J \\r\\b"',
        '"line\\u2028sep \\ud83d\\ude00 \\ud800"',
        '{"k": ["v", {"w": null}]}',
    ]
)
SECTIONS = st.sampled_from(
    ["thinking", "action", "answer", "observation", "Action", "ANSWER", "clipboard"]
)


@st.composite
def calls(draw: st.DrawFn, chain: str = "json") -> str:
    """A call in the chain's language (mostly) with a hostile argument, possibly cut off."""
    value = draw(HOSTILE_VALUES)
    tool_name, key = draw(
        st.sampled_from(
            [("echo", "value"), ("echo", "value"), ("note", "text"), ("echo", "x"), ("", "value")]
        )
    )
    json_forms = [
        f'{{"tool": "{tool_name}", "args": {{"{key}": {value}}}}}',
        f'[{{"tool": "{tool_name}", "args": {{"{key}": {value}}}}}]',
        f'{{"name": "{tool_name}", "arguments": "{{\\"{key}\\": {value}}}"}}',
    ]
    forms = {
        "json": json_forms,
        "yaml": [
            f"tool: {tool_name}\nargs:\n  {key}: {value}\n",
            f"- tool: {tool_name}\n  args: {{{key}: {value}}}\n",
        ],
        "natural": [
            f'<tool_call name="{tool_name}">{{"{key}": {value}}}</tool_call>',
            f'<tool_call>{{"name": "{tool_name}", "arguments": {{"{key}": {value}}}}}</tool_call>',
        ],
        "pythonic": [f"{tool_name}({key}={value})", f"[{tool_name}({value})]"],
    }
    native = forms[chain]
    other = [form for name, group in forms.items() if name != chain for form in group]
    text = draw(st.sampled_from(native * 3 + other))
    if draw(st.integers(min_value=0, max_value=3)) == 0:  # cut off, a quarter of the time
        text = text[: draw(st.integers(min_value=0, max_value=len(text)))]
    return text


def section(markdown: bool, name: str, body: str, closed: bool = True) -> str:
    if markdown:
        return f"# {name.title()}\n{body}\n"
    return f"<{name}>{body}" + (f"</{name}>" if closed else "")


@st.composite
def outputs(draw: st.DrawFn, markdown: bool, chain: str) -> str:
    """One model output in the agent's format (half of them well formed around a hostile
    call or answer), or a mix of both formats, calls and hostile text in any order."""
    if draw(st.booleans()):
        thinking = section(markdown, "thinking", draw(st.text(max_size=30)))
        kind = draw(st.sampled_from(["action", "action", "answer"]))
        body = (
            draw(calls(chain))
            if kind == "action"
            else draw(st.one_of(HOSTILE_VALUES, calls(chain)))
        )
        if kind == "answer" and draw(st.booleans()):
            body = '{"value": ' + body + "}"  # a typed answer
        return thinking + section(markdown, kind, body, closed=draw(st.booleans()))
    pieces = []
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        kind = draw(st.sampled_from(["xml", "markdown", "call", "text", "fence"]))
        name = draw(SECTIONS)
        body = draw(st.one_of(calls(chain), HOSTILE_VALUES, st.text(max_size=40)))
        if kind in ("xml", "markdown"):
            pieces.append(section(kind == "markdown", name, body, closed=draw(st.booleans())))
        elif kind == "fence":
            pieces.append(f"```json\n{body}\n```")
        elif kind == "call":
            pieces.append(body)
        else:
            pieces.append(draw(st.text(max_size=80)))
    return "".join(pieces)


SETUPS = [
    (format_type, chain_type, typed)
    for format_type in (XMLFormat, MarkdownFormat)
    for chain_type in (JSONToolChain, YAMLToolChain, NaturalToolChain, PythonicToolChain)
    for typed in (False, True)
]

CHAIN_NAMES: dict[Any, str] = {
    JSONToolChain: "json",
    YAMLToolChain: "yaml",
    NaturalToolChain: "natural",
    PythonicToolChain: "pythonic",
}

OUR_STYLE = re.compile(r"\x1b\[[0-9;]*m")
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


@examples(100)  # GENT_PROPERTIES=thorough: 1,000
@given(data=st.data(), setup=st.sampled_from(SETUPS), chunk=st.sampled_from([0, 1, 3, 17]))
def test_hostile_model_outputs_never_escape_a_run(
    tmp_path: Path, data: st.DataObject, setup: tuple[Any, Any, bool], chunk: int
) -> None:
    markdown, chain = setup[0] is MarkdownFormat, CHAIN_NAMES[setup[1]]
    scripted = data.draw(
        st.lists(
            st.tuples(
                outputs(markdown, chain), st.sampled_from(["stop", "stop", "length", "end_turn"])
            ),
            min_size=1,
            max_size=4,
        ),
        label="outputs",
    )
    format_type, chain_type, typed = setup
    model = ScriptedModel(scripted, chunk_size=chunk)
    agent = Agent(
        model,
        format_type(),
        chain_type(),
        JSONTermination(Answer) if typed else None,
        tools=[echo, note],
        limits=Limits(max_steps=len(scripted), tool_timeout=10),
        working_directory=tmp_path,
        redact=Redactor(["secret-token"]),
    )
    transcript = tmp_path / "run.jsonl"
    transcript.unlink(missing_ok=True)
    shown = io.StringIO()
    live = LiveView(shown, io.StringIO(), color=True, redactor=Redactor(["secret-token"]))
    result = agent.run_sync("task", transcript=transcript, on_event=live)  # never raises

    printed = strict_loads(write_json(result.to_dict(), indent=2))  # the --json output
    assert printed["stop_reason"] == result.stop_reason
    for line in transcript.read_text(encoding="utf-8").splitlines():
        strict_loads(line)
    assert len(load_transcript(transcript).steps) == len(result.steps)
    assert RAW_CONTROL.search(OUR_STYLE.sub("", shown.getvalue())) is None
    json.dumps(printed)  # plain data all the way down

"""Native function calling as a baseline: BFCL names as API names and back, the request sent,
``tool_calls`` decoded and judged, which models it runs on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gent_bfcl import load_category
from gent_bfcl.names import API_NAME, APINames
from gent_bfcl.native import (
    NATIVE_MAX_TOKENS,
    ChatServer,
    decode_tool_calls,
    judge_message,
    native_body,
    server_of,
)
from gent_bfcl.prompt import PYTHON_HINT
from gent_bfcl.pycalls import DecodeError
from gent_bfcl.verdict import FailureKind
from hypothesis import given
from hypothesis import strategies as st

from gent_core import Registry, build_plugin_manager
from gent_core.testing import ScriptedModel

DATA = Path(__file__).with_name("data")

# Names as BFCL writes them (letters, digits, dots, underscores), and stranger ones: the
# characters an API refuses, names longer than 64 characters, names that differ only there.
NAMES = st.text(alphabet="ab_.-/ é9", min_size=1, max_size=80) | st.from_regex(
    r"[a-z]{1,3}(\.[a-z_]{1,70}){0,3}", fullmatch=True
)


@given(st.lists(NAMES, min_size=1, max_size=12))
def test_api_names_are_valid_distinct_and_map_back(names: list[str]) -> None:
    mapping = APINames(names)
    unique = list(dict.fromkeys(names))
    sent = [mapping.to_api(name) for name in unique]
    assert all(API_NAME.fullmatch(name) for name in sent), sent
    assert len(set(sent)) == len(unique)  # no two functions share a name
    assert [mapping.from_api(name) for name in sent] == unique
    for name in unique:
        if API_NAME.fullmatch(name):
            assert mapping.to_api(name) == name  # a name the API accepts is sent as it is


def test_dotted_names_become_underscored_and_a_taken_name_gets_a_suffix() -> None:
    for order in (
        ["geometry.circumference", "geometry_circumference"],
        ["geometry_circumference", "geometry.circumference"],
    ):
        mapping = APINames(order)
        assert mapping.to_api("geometry_circumference") == "geometry_circumference"
        assert mapping.to_api("geometry.circumference") == "geometry_circumference_2"
    assert APINames(["math.factorial"]).to_api("math.factorial") == "math_factorial"
    long = ["a." + "b" * 70, "a_" + "b" * 70]
    mapping = APINames(long)
    assert [len(mapping.to_api(name)) for name in long] == [64, 64]
    assert mapping.to_api(long[0]) != mapping.to_api(long[1])


def test_a_name_that_was_not_offered_comes_back_as_written() -> None:
    mapping = APINames(["math.factorial"])
    assert mapping.from_api("circle_circumference") == "circle_circumference"
    assert mapping.from_api("math_factorial") == "math.factorial"


def tool_call(name: str, arguments: Any) -> dict[str, Any]:
    return {"id": "call_1", "type": "function", "function": {"name": name, "arguments": arguments}}


def test_tool_calls_are_decoded_into_bfcl_calls() -> None:
    names = APINames(["math.factorial", "geometry.area_circle"])
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            tool_call("math_factorial", '{"number": 5}'),
            tool_call("geometry_area_circle", {"radius": 2.0}),  # some servers send objects
            tool_call("math_factorial", ""),  # no arguments
        ],
    }
    assert decode_tool_calls(message, names) == [
        {"math.factorial": {"number": 5}},
        {"geometry.area_circle": {"radius": 2.0}},
        {"math.factorial": {}},
    ]
    assert decode_tool_calls({"role": "assistant", "content": "Hi"}, names) == []
    assert decode_tool_calls({"content": "x", "tool_calls": None}, names) == []


@pytest.mark.parametrize(
    ("tool_calls", "said"),
    [
        ([tool_call("math_factorial", '{"number": 5')], "are not JSON"),
        ([tool_call("math_factorial", "[5]")], "not a JSON object"),
        ([{"type": "function", "function": {"arguments": "{}"}}], "without a function name"),
        ({"not": "a list"}, "not a list"),
    ],
)
def test_tool_calls_that_cannot_be_decoded_say_why(tool_calls: Any, said: str) -> None:
    with pytest.raises(DecodeError, match=said):
        decode_tool_calls({"tool_calls": tool_calls}, APINames(["math.factorial"]))


def test_tool_calls_are_judged_by_the_checker() -> None:
    simple = load_category("simple_python", DATA)[0]  # 5 factorial
    irrelevance = load_category("irrelevance", DATA)[0]
    names = APINames(["math.factorial"])
    right = {"tool_calls": [tool_call("math_factorial", '{"number": 5}')]}
    calls, verdict = judge_message(simple, right, names)
    assert verdict.valid and calls == [{"math.factorial": {"number": 5}}]
    wrong = {"tool_calls": [tool_call("math_factorial", '{"number": 4}')]}
    assert judge_message(simple, wrong, names)[1].kind is FailureKind.WRONG_VALUE
    # A call written as text is no call: the tools parameter gives the program nothing.
    fenced = {"content": '```json\n{"name": "math_factorial", "arguments": {"number": 5}}\n```'}
    calls, verdict = judge_message(simple, fenced, names)
    assert calls == [] and verdict.kind is FailureKind.NO_CALL
    verdict = judge_message(irrelevance, fenced, names)[1]
    assert verdict.valid and not verdict.undecoded_no_call  # answered without a call
    assert judge_message(irrelevance, right, names)[1].kind is FailureKind.CALL_MADE
    broken = {"tool_calls": [tool_call("math_factorial", "{")]}
    assert judge_message(simple, broken, names)[1].kind is FailureKind.UNPARSABLE
    assert judge_message(irrelevance, broken, names)[1].undecoded_no_call


def test_the_request_sends_the_functions_as_tools_and_the_turn_as_it_is() -> None:
    task = load_category("simple_python", DATA)[2]  # a system message, then the question
    server = ChatServer("http://127.0.0.1:1/v1", "m", extra_body={"top_k": 1})
    names = APINames(function["name"] for function in task.functions)
    body = native_body(task, server, names, max_tokens=99)
    assert body["messages"] == task.question[0]  # no system prompt of BFCL's own
    assert body["model"] == "m" and body["max_tokens"] == 99 and body["top_k"] == 1
    assert body["stream"] is False and "tool_choice" not in body
    (tool,) = body["tools"]
    assert tool["type"] == "function"
    assert tool["function"]["name"] == names.to_api(task.functions[0]["name"])
    assert tool["function"]["description"].endswith(PYTHON_HINT)
    assert tool["function"]["parameters"]["type"] == "object"
    dotted = load_category("simple_python", DATA)[1]
    names = APINames(function["name"] for function in dotted.functions)
    body = native_body(dotted, server, names)
    assert [t["function"]["name"] for t in body["tools"]] == ["geometry_area_circle"]
    assert body["max_tokens"] == NATIVE_MAX_TOKENS
    assert json.dumps(body)  # JSON-ready


def test_native_calling_needs_an_openai_chat_model() -> None:
    note = server_of(ScriptedModel(["x"]))
    assert isinstance(note, str) and "'scripted'" in note and "server" in note
    pytest.importorskip("gent_openai")
    registry = Registry.from_plugin_manager(build_plugin_manager())

    def model_of(**options: str) -> Any:
        return registry.create("model", "openai", **options)

    server = server_of(
        model_of(base_url="http://127.0.0.1:9/v1/", model="tiny", api_key="sk-secret-123456")
    )
    assert isinstance(server, ChatServer)
    assert (server.root, server.model) == ("http://127.0.0.1:9/v1", "tiny")
    assert server.headers["Authorization"] == "Bearer sk-secret-123456"
    assert "sk-secret" not in repr(server)
    assert server.redact("key sk-secret-123456 here") == "key *** here"
    completions = server_of(model_of(base_url="http://127.0.0.1:9/v1", api="completions"))
    assert isinstance(completions, str) and "api: chat" in completions


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.llama
def test_native_calling_and_the_prompt_mode_on_a_real_server_in_one_run(
    instruct_server: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """gent eval with both baselines against llama.cpp's server (SmolLM2-135M-Instruct, its own
    chat template): every native request answered, its tool calls decoded and mapped back to
    BFCL's dotted names, judged beside the prompt mode and gent's agent."""
    from gent_core.testing import run_cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "agent.yaml").write_text(
        f"model: {{name: openai, base_url: '{instruct_server.url}', "
        f"model: '{instruct_server.model}', max_retries: 0}}\n"
    )
    suite = f"bfcl:simple_python,parallel,irrelevance@{DATA}"
    arguments = ["eval", suite, "agent.yaml", "--limit", "2", "--max-tokens", "96"]
    code = run_cli([*arguments, "--baseline", "prompt,native", "--report", "r.json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["baselines"]["native-fc"]["ran"] is True
    assert set(report["summary"]) == {"bfcl-prompt", "native-fc", "agent"}
    native = [result for result in report["results"] if result["config"] == "native-fc"]
    assert [result["id"] for result in native] == [
        "simple_python_0",
        "simple_python_1",
        "parallel_0",
        "parallel_1",
        "irrelevance_0",
    ]
    for result in native:
        assert result["kind"] != "model_error", result["message"]
        assert result["output"] and result["output_tokens"] and result["finish_reason"]
        if not result["calls"]:  # the text it wrote instead is no call
            assert result["kind"] == "no_call" or result["category"] == "irrelevance"
    # SmolLM2's chat template does not render tools: the server drops them, and says nothing.
    assert "The server dropped the tools" in report["baselines"]["native-fc"]["note"]
    assert any("native-fc" in line for line in captured.out.splitlines())

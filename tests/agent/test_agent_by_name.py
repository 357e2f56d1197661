"""``Agent("llamacpp", format="xml", toolchain="json", tools=["calculator", word_count])``:
an agent by plugin name in Python, names and objects mixed, with a config file's errors
(issue 19, section 1).
"""

from __future__ import annotations

import json
from pathlib import Path

import gent_json.plugin
import gent_xml.plugin
import pytest
from gent_json.chain import JSONToolChain
from gent_markdown.format import MarkdownFormat
from gent_xml.format import XMLFormat

from gent_core import Agent, ConfigError, load_config, tool
from gent_core.testing import PluginSandbox, ScriptedModel


@tool
def word_count(text: str) -> int:
    """Count the words of a text."""
    return len(text.split())


def _xml_call(tool_name: str, args: dict[str, object]) -> str:
    return f"<action>{json.dumps([{'tool': tool_name, 'args': args}])}</action>"


def test_names_and_objects_mix_and_the_run_calls_a_named_tool_and_a_code_tool(
    tmp_path: Path,
) -> None:
    outputs = [
        _xml_call("word_count", {"text": "to be or not to be"}),
        _xml_call("calculator", {"expression": "6 * 7"}),
        "<answer>6 words; 42</answer>",
    ]
    agent = Agent(
        ("scripted", {"outputs": outputs}),
        format="xml",
        toolchain="json",
        tools=["calculator", word_count],
        working_directory=tmp_path,
    )
    assert isinstance(agent.model, ScriptedModel)
    assert isinstance(agent.format, XMLFormat)
    assert isinstance(agent.toolchain, JSONToolChain)
    assert [item.name for item in agent.toolchain.tools] == ["calculator", "word_count"]
    result = agent.run_sync("How many words are in 'to be or not to be'? And 6 * 7?")
    assert result.stop_reason == "answer", result.message
    assert result.answer == "6 words; 42"
    calls = [(call.tool, call.status, call.output) for step in result.steps for call in step.calls]
    assert calls == [("word_count", "success", 6), ("calculator", "success", 42)]


def test_the_mapping_form_other_plugins_and_a_plain_function(tmp_path: Path) -> None:
    def shout(text: str) -> str:
        """Upper-case a text."""
        return text.upper()

    outputs = [
        "# Action\n```yaml\n- tool: shout\n  args: {text: hi}\n```\n",
        "# Answer\nHI\n",
    ]
    agent = Agent(
        {"scripted": {"outputs": outputs}},
        format=MarkdownFormat(),
        toolchain={"name": "yaml"},
        tools=[shout],
        thinking=False,
        working_directory=tmp_path,
    )
    assert type(agent.toolchain).__name__ == "YAMLToolChain"
    result = agent.run_sync("shout hi")
    assert result.answer == "HI", result.message
    assert result.steps[0].calls[0].output == "HI"


def test_parts_left_out_are_the_built_in_agents() -> None:
    plain = Agent(ScriptedModel([]))
    assert isinstance(plain.format, XMLFormat)  # default_agent.yaml: format: xml
    assert plain.toolchain is None  # no tools, no tool chain
    assert plain.termination.name == "answer"
    with_tools = Agent(ScriptedModel([]), tools=[word_count])
    assert isinstance(with_tools.toolchain, JSONToolChain)  # toolchain: json
    assert [item.name for item in with_tools.toolchain.tools] == ["word_count"]


def test_an_unknown_name_is_the_config_files_error_keyed_by_the_argument() -> None:
    with pytest.raises(ConfigError) as caught:
        Agent(ScriptedModel([]), format="xlm")
    text = str(caught.value)
    assert text.startswith("key 'format': no format named 'xlm' (did you mean 'xml'?)")
    assert "installed formats: " in text and "markdown" in text


def test_every_problem_at_once_each_keyed_by_the_argument_as_written() -> None:
    with pytest.raises(ConfigError) as caught:
        Agent(
            ("scripted", {"outputz": []}),
            format=42,  # type: ignore[arg-type]
            tools=[word_count, "calculatr", ("calculator", "x")],  # type: ignore[list-item]
        )
    problems = {problem.location.key: problem.message for problem in caught.value.problems}
    assert problems["format"].startswith("expected a plugin name, (name, {options})")
    assert "a TextFormat object; got int 42" in problems["format"]
    assert "a pair is written (name, {options})" in problems["tools.2"]
    # the values of the right kind are then looked up: the tool keeps its place in the list
    with pytest.raises(ConfigError) as caught:
        Agent(("scripted", {"outputz": []}), tools=[word_count, "calculatr"])
    problems = {problem.location.key: problem.message for problem in caught.value.problems}
    assert "did you mean 'calculator'" in problems["tools.1"]
    assert "unknown option 'outputz' (did you mean 'outputs'?)" in problems["model.outputz"]


def test_a_tool_given_twice_is_an_error() -> None:
    @tool(name="word_count")
    def other(text: str) -> int:
        """Count again."""
        return 0

    with pytest.raises(ConfigError, match="tool 'word_count' is given twice"):
        Agent(ScriptedModel([]), tools=[word_count, other])


def test_from_config_takes_tools_defined_in_code(tmp_path: Path) -> None:
    config = tmp_path / "agent.yaml"
    outputs = [_xml_call("word_count", {"text": "a b c"}), "<answer>3</answer>"]
    config.write_text(
        f"model: {{name: scripted, outputs: {json.dumps(outputs)}}}\ntools: [calculator]\n"
    )
    agent = Agent.from_config(load_config(config), tools=[word_count])
    assert [item.name for item in agent.toolchain.tools] == ["calculator", "word_count"]  # type: ignore[union-attr]
    result = agent.run_sync("count")
    assert result.answer == "3"
    assert result.steps[0].calls[0].output == 3
    clash = tool(word_count.function, name="calculator")
    with pytest.raises(ConfigError) as caught:
        Agent.from_config(load_config(config), tools=[clash])
    assert "tool 'calculator' is given twice: as a tool object, and as tools.0" in str(caught.value)
    assert "agent.yaml, line 2" in str(caught.value)


def test_a_toolset_entry_in_tools_is_opened_with_the_agent(
    gent_plugins: PluginSandbox, tmp_path: Path
) -> None:
    from gent_core import _builtin as core_plugin
    from tests.extensions.test_toolsets import FakeServer, ServerPlugin

    gent_plugins.register(core_plugin, "core")
    gent_plugins.register(ServerPlugin(), "servers")
    gent_plugins.register(gent_xml.plugin, "xml")
    gent_plugins.register(gent_json.plugin, "json")
    outputs = [_xml_call("echo", {"text": "hi"}), "<answer>done</answer>"]
    with gent_plugins.as_process_manager():
        agent = Agent(
            ("scripted", {"outputs": outputs}),
            tools=[{"fakeserver": {"name": "git"}}],
            working_directory=tmp_path,
        )
    assert [type(toolset) for toolset in agent.toolsets] == [FakeServer]
    assert isinstance(agent.toolchain, JSONToolChain)  # a toolset entry is a tool entry
    result = agent.run_sync("echo hi")
    assert result.steps[0].calls[0].output == "git: hi"
    assert isinstance(agent.toolset_tools["echo"], FakeServer)

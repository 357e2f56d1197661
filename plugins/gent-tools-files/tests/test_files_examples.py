"""The file tools' worked examples (shown in few-shot prompts) are true: run in a fresh copy of
the example folder, each gives the result it declares, and each answer restates it."""

from __future__ import annotations

from pathlib import Path

import pytest
from gent_tools_files.examples import EXAMPLE_FILES, EXAMPLES
from gent_tools_files.plugin import gent_register_tools

from gent_core.testing import run_tool_sync
from gent_core.tools import ToolExample

TOOLS = {tool.name: tool for tool in gent_register_tools()}
CASES = [(name, example) for name, examples in EXAMPLES.items() for example in examples]


@pytest.mark.parametrize(("name", "example"), CASES, ids=[e.task for _, e in CASES])
def test_each_example_gives_the_result_it_declares(
    name: str, example: ToolExample, tmp_path: Path
) -> None:
    for path, text in EXAMPLE_FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    tool = TOOLS[name]()
    result = run_tool_sync(tool, dict(example.arguments), working_directory=tmp_path)
    assert result.status == "success", result.output
    assert result.output == example.result


def test_every_file_tool_declares_examples_with_answers() -> None:
    assert set(EXAMPLES) == set(TOOLS)
    for name, tool in TOOLS.items():
        assert tool.examples == EXAMPLES[name]
        for example in tool.examples:
            assert example.answer

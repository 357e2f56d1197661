"""Every file the tools write has a byte cap (issue 17): ``edit_file`` with ``replace_all``
cannot turn a 100 KB file into a huge one, and ``write_file`` cannot write past its
``max_bytes``. The size of an edit is worked out before the new content is built; the error
says the size, the cap and what to do, and nothing is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from gent_json import JSONToolChain
from gent_tools_files import EditFile, FileToolError, WriteFile
from gent_xml import XMLFormat

from gent_core import Agent
from gent_core.testing import ScriptedModel
from gent_core.tools import ToolResult

Run = Callable[..., ToolResult]

ROWS = "a\n" * 50_000  # 100,000 bytes


def test_replace_all_past_the_cap_is_refused_and_says_size_cap_and_what_to_do(
    run: Run, work: Path
) -> None:
    (work / "rows.txt").write_text(ROWS)
    arguments = {"path": "rows.txt", "old_text": "a", "new_text": "b" * 100, "replace_all": True}
    with pytest.raises(FileToolError) as caught:
        run(EditFile(max_file_bytes=1_000_000), arguments)
    assert caught.value.model_message == (
        "The new content of 'rows.txt' would be 4.8 MB (5,050,000 bytes), more than edit_file "
        "writes (976.6 KB, its max_file_bytes option); nothing was written.\n"
        "Replace fewer occurrences at once (expected_replacements, or an old_text that matches "
        "only some), or use a shorter new_text."
    )
    assert (work / "rows.txt").read_text() == ROWS


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_the_size_of_an_edit_is_exact_crlf_and_bom_included(
    run: Run, work: Path, bom: bytes
) -> None:
    original = bom + b"x = 1\r\ny = 2\r\n" * 100
    new_text = "x = 10\n# was one\n"  # written with CRLF in this file
    arguments = {"path": "crlf.py", "old_text": "x = 1\n", "new_text": new_text}
    expected = len(original) + 100 * (len(new_text) + 2 - len("x = 1\n") - 1)
    (work / "crlf.py").write_bytes(original)
    with pytest.raises(FileToolError, match=re.escape(f"({expected:,} bytes)")):
        run(EditFile(max_file_bytes=expected - 1), {**arguments, "replace_all": True})
    assert (work / "crlf.py").read_bytes() == original
    run(EditFile(max_file_bytes=expected), {**arguments, "replace_all": True})
    written = (work / "crlf.py").read_bytes()
    assert len(written) == expected
    assert written.startswith(bom + b"x = 10\r\n# was one\r\ny = 2\r\n")


def test_write_file_states_the_utf8_size_and_the_cap(run: Run, work: Path) -> None:
    with pytest.raises(FileToolError) as caught:
        run(WriteFile(max_bytes=10), {"path": "e.txt", "content": "é" * 6})  # 12 bytes
    assert caught.value.model_message == (
        "The new content of 'e.txt' would be 12 bytes, more than write_file writes "
        "(10 bytes, its max_bytes option); nothing was written.\n"
        "Write less at once: split the content over several files."
    )
    assert not (work / "e.txt").exists()
    run(WriteFile(max_bytes=10), {"path": "e.txt", "content": "é" * 5})  # exactly 10 bytes
    assert (work / "e.txt").read_text() == "é" * 5


def test_the_model_reads_the_refusal_and_the_file_is_unchanged(work: Path) -> None:
    (work / "rows.txt").write_text(ROWS)
    call = {"path": "rows.txt", "old_text": "a", "new_text": "b" * 100, "replace_all": True}
    action = f"<action>{json.dumps({'tool': 'edit_file', 'args': call})}</action>"
    model = ScriptedModel([action, "<answer>too big</answer>"])
    agent = Agent(
        model,
        XMLFormat(),
        JSONToolChain(),
        tools=[EditFile(max_file_bytes=1_000_000)],
        working_directory=work,
    )
    result = agent.run_sync("Make every a a long b.")
    assert result.steps[0].calls[0].status == "error"
    observation = model.requests[1].messages[-1].text
    assert "would be 4.8 MB (5,050,000 bytes), more than edit_file writes" in observation
    assert "Replace fewer occurrences at once" in observation
    assert (work / "rows.txt").read_text() == ROWS

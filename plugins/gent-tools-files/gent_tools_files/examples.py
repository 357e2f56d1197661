"""Worked examples of the file tools, for few-shot prompts.

Every example works on the same small, made-up folder, :data:`EXAMPLE_FILES`; its result is
what the tool returns there (the package's tests run each example in a fresh copy of the
folder and compare).
"""

from __future__ import annotations

from gent_core.tools import ToolExample

__all__ = ["EXAMPLES", "EXAMPLE_FILES"]

EXAMPLE_FILES: dict[str, str] = {
    "docs/meeting.txt": "Meeting moved to Thursday at 10.\nBring the slides.\n",
    "docs/budget.csv": "item,cost\nvenue,1200\ncatering,800\n",
    "settings.toml": '[app]\nname = "kettle"\nversion = "0.3.0"\n',
}
"""The files (path: text) the examples assume in the working directory."""

EXAMPLES: dict[str, tuple[ToolExample, ...]] = {
    "read_file": (
        ToolExample(
            "What does docs/meeting.txt say?",
            {"path": "docs/meeting.txt"},
            "Meeting moved to Thursday at 10.\nBring the slides.",
            "docs/meeting.txt says: Meeting moved to Thursday at 10. Bring the slides.",
        ),
        ToolExample(
            "Show lines 2 to 3 of settings.toml.",
            {"path": "settings.toml", "start_line": 2, "end_line": 3},
            'name = "kettle"\nversion = "0.3.0"\n[lines 2-3 of 3]',
            'Lines 2 to 3 of settings.toml are: name = "kettle" and version = "0.3.0".',
        ),
    ),
    "list_dir": (
        ToolExample(
            "Which files are in the docs folder?",
            {"path": "docs"},
            "docs/budget.csv\ndocs/meeting.txt\n[2 entries: 0 directories, 2 files]",
            "The docs folder holds two files: docs/budget.csv and docs/meeting.txt.",
        ),
    ),
    "search_text": (
        ToolExample(
            "Which file sets the version?",
            {"pattern": "version"},
            'settings.toml:3: version = "0.3.0"\n[1 matching line in 1 file; 3 files searched]',
            'settings.toml sets it, on line 3: version = "0.3.0".',
        ),
        ToolExample(
            "Where in the docs folder is catering mentioned?",
            {"pattern": "catering", "path": "docs"},
            "docs/budget.csv:3: catering,800\n[1 matching line in 1 file; 2 files searched]",
            "Catering is mentioned on line 3 of docs/budget.csv: catering,800.",
        ),
    ),
    "write_file": (
        ToolExample(
            "Create hello.txt saying Hello, world!",
            {"path": "hello.txt", "content": "Hello, world!\n"},
            "Created hello.txt (1 lines, 14 bytes).",
            "I created hello.txt; it says Hello, world!",
        ),
    ),
    "edit_file": (
        ToolExample(
            "In settings.toml, set the version to 0.4.0.",
            {
                "path": "settings.toml",
                "old_text": 'version = "0.3.0"',
                "new_text": 'version = "0.4.0"',
            },
            "Edited settings.toml: replaced 1 occurrence (line 3). Lines 1-3 now read:\n"
            '1: [app]\n2: name = "kettle"\n3: version = "0.4.0"',
            'settings.toml now says version = "0.4.0" on line 3.',
        ),
        ToolExample(
            "The meeting is on Friday now: fix docs/meeting.txt.",
            {"path": "docs/meeting.txt", "old_text": "Thursday", "new_text": "Friday"},
            "Edited docs/meeting.txt: replaced 1 occurrence (line 1). Lines 1-2 now read:\n"
            "1: Meeting moved to Friday at 10.\n2: Bring the slides.",
            "docs/meeting.txt now says: Meeting moved to Friday at 10.",
        ),
    ),
}
"""Each file tool's examples, by tool name."""

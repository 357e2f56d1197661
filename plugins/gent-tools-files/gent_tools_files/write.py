"""The writing tools: ``write_file`` (create or overwrite) and ``edit_file`` (exact replace).

Both are marked ``writes = True``: the agent config must allow writing for them to be
available. Both write atomically (:mod:`gent_tools_files.atomic`): a temporary file in the
same directory, renamed over the target; missing parent directories are created inside the
working directory; no symbolic link is ever followed out of it.

``edit_file`` replaces an exact text. Zero matches, or several when one was expected, is an
error naming the line of each match, and nothing is written. It keeps what it does not touch
byte for byte: a UTF-8 byte-order mark, CRLF line endings (``old_text`` and ``new_text`` may
use plain newlines in a CRLF file), bytes that are not UTF-8.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from gent_core.workspace import Target, Workspace
from gent_tools_files.atomic import write_atomic
from gent_tools_files.base import FILE_PATH_SCHEMA, FileTool, FileToolOptions
from gent_tools_files.editing import EditPlan, plan_edit
from gent_tools_files.errors import BinaryFileError, FileToolError
from gent_tools_files.examples import EXAMPLES
from gent_tools_files.text import human_size, sniff_binary

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext

__all__ = ["EditFile", "EditFileOptions", "WriteFile", "WriteFileOptions"]


class WriteFileOptions(FileToolOptions):
    """Options of ``write_file`` (set in the agent config).

    Attributes:
        max_bytes: Largest content written, in bytes of UTF-8 (checked where every file
            tool writes: :func:`~gent_tools_files.atomic.check_write_size`).
    """

    max_bytes: int = Field(5_000_000, ge=1)


class EditFileOptions(FileToolOptions):
    """Options of ``edit_file`` (set in the agent config).

    Attributes:
        max_file_bytes: Largest file edited (it is read whole to be edited), and largest
            file an edit may make.
    """

    max_file_bytes: int = Field(10_000_000, ge=1)


def _encode(text: str, *, tool: str, path: str, what: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise FileToolError(
            f"The {what} holds a character that cannot be written as UTF-8 (position "
            f"{error.start}); nothing was written.",
            tool=tool,
            path=path,
            hint="Write text only (no lone surrogates such as \\ud800).",
        ) from None


def _lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


class WriteFile(FileTool):
    """``write_file``: create or overwrite a text file in the working directory."""

    name = "write_file"
    description = (
        "Create a text file in the working directory, or replace its whole content; missing "
        "parent directories are created."
    )
    writes = True
    parameters = {  # noqa: RUF012 - read-only, checked when the class is defined
        "type": "object",
        "properties": {
            "path": dict(FILE_PATH_SCHEMA),
            "content": {"type": "string", "description": "the file's whole new content"},
        },
        "required": ["path", "content"],
        "additionalProperties": False,
    }
    examples = EXAMPLES["write_file"]
    Options = WriteFileOptions
    options: WriteFileOptions

    def run(
        self,
        working_directory: Path,
        path: str,
        content: str,
        context: ExecutionContext | None = None,
    ) -> str:
        """Write ``content`` to ``path``."""
        workspace = Workspace(working_directory, tool=self.name)
        target = workspace.resolve(path)
        data = _encode(content, tool=self.name, path=path, what="content")
        previous = target.stat.st_size if target.is_file and target.stat is not None else None
        if context is not None:
            context.cancellation.raise_if_cancelled()
        created = write_atomic(
            workspace, target, data, max_bytes=self.options.max_bytes, option="max_bytes"
        )
        size = f"{_lines(data):,} lines, {human_size(len(data))}"
        if created or previous is None:
            return f"Created {target.relative} ({size})."
        return f"Replaced {target.relative} (was {human_size(previous)}; now {size})."


class EditFile(FileTool):
    """``edit_file``: replace an exact text in a file."""

    name = "edit_file"
    description = (
        "Replace an exact text (old_text, matched character for character, whitespace "
        "included) with new_text in a file of the working directory. old_text must occur "
        "exactly once, unless replace_all or expected_replacements says otherwise."
    )
    writes = True
    parameters = {  # noqa: RUF012 - read-only, checked when the class is defined
        "type": "object",
        "properties": {
            "path": dict(FILE_PATH_SCHEMA),
            "old_text": {
                "type": "string",
                "minLength": 1,
                "description": "the exact text to replace (include nearby lines to make it unique)",
            },
            "new_text": {"type": "string", "description": "the text to put in its place"},
            "replace_all": {
                "type": "boolean",
                "default": False,
                "description": "replace every occurrence",
            },
            "expected_replacements": {
                "type": "integer",
                "minimum": 1,
                "description": "how many occurrences to replace; an error if there are not "
                "exactly that many",
            },
        },
        "required": ["path", "old_text", "new_text"],
        "additionalProperties": False,
    }
    examples = EXAMPLES["edit_file"]
    Options = EditFileOptions
    options: EditFileOptions

    def run(
        self,
        working_directory: Path,
        path: str,
        old_text: str,
        new_text: str,
        replace_all: bool = False,
        expected_replacements: int | None = None,
        context: ExecutionContext | None = None,
    ) -> str:
        """Replace ``old_text`` with ``new_text`` in ``path``."""
        if old_text == new_text:
            raise FileToolError(
                "old_text and new_text are the same; there is nothing to change.",
                tool=self.name,
                path=path,
            )
        workspace = Workspace(working_directory, tool=self.name)
        target = workspace.resolve(path)
        data, info = self._read(workspace, target)
        _encode(new_text, tool=self.name, path=path, what="new_text")
        plan = plan_edit(
            data,
            old_text,
            new_text,
            replace_all=replace_all,
            expected=expected_replacements,
            tool=self.name,
            path=target.relative,
            max_bytes=self.options.max_file_bytes,
        )
        if context is not None:
            context.cancellation.raise_if_cancelled()
        write_atomic(
            workspace,
            target,
            plan.data,
            max_bytes=self.options.max_file_bytes,
            option="max_file_bytes",
            unchanged_since=info,
        )
        return _edit_answer(target, plan)

    def _read(self, workspace: Workspace, target: Target) -> tuple[bytes, os.stat_result]:
        info = workspace.require_file(target)
        limit = self.options.max_file_bytes
        if info.st_size > limit:
            raise FileToolError(
                f"{target.relative!r} is {human_size(info.st_size)}, more than edit_file edits "
                f"({human_size(limit)}, the max_file_bytes option); nothing was changed.",
                tool=self.name,
                path=target.raw,
            )
        fd = workspace.open_file(target)
        try:
            info = os.fstat(fd)
            chunks: list[bytes] = []
            size = 0
            while size <= limit and (chunk := os.read(fd, min(1 << 20, limit + 1 - size))):
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(fd)
        data = b"".join(chunks)
        if len(data) > limit:
            raise FileToolError(
                f"{target.relative!r} grew past {human_size(limit)} while it was read; nothing "
                "was changed.",
                tool=self.name,
                path=target.raw,
            )
        kind = sniff_binary(data, complete=True)
        if kind is not None:
            raise BinaryFileError(
                f"{target.relative!r} is a binary file ({kind}, {human_size(len(data))}); "
                "edit_file edits UTF-8 text files only.",
                tool=self.name,
                path=target.raw,
                kind=kind,
                size=len(data),
            )
        return data, info


def _edit_answer(target: Target, plan: EditPlan) -> str:
    count = len(plan.lines)
    where = ", ".join(str(line) for line in plan.lines[:10])
    if count > 10:
        where += ", ..."
    head = (
        f"Edited {target.relative}: replaced {count} occurrence{'s' if count > 1 else ''} "
        f"(line{'s' if count > 1 else ''} {where})."
    )
    if not plan.excerpt:
        return head
    first, last = plan.excerpt[0][0], plan.excerpt[-1][0]
    width = len(str(last))
    shown = "\n".join(f"{number:>{width}}: {text}" for number, text in plan.excerpt)
    return f"{head} Lines {first}-{last} now read:\n{shown}"

"""Checks of the files a run left in its working directory: file."""

from __future__ import annotations

from typing import ClassVar

from pydantic import (
    Field,
    field_validator,
)

from gent_core.bounds import PatternTimeoutError, search
from gent_core.workspace import probe_path
from gent_eval.checks.base import (
    Check,
    CheckContext,
    CheckOutcome,
    Pattern,
    Texts,
)
from gent_eval.paths import relative_path_problem


class FileCheck(Check):
    """A file in the task's working directory exists (or not) and holds given content.

    Attributes:
        path: The file, relative to the working directory.
        exists: Whether the file must exist (``false``: must not).
        contains: Texts the file must contain.
        not_contains: Texts the file must not contain.
        regex: A regular expression the file's text must match (searched as ``re.search``
            does, with the deadline of :func:`gent_core.bounds.compile_pattern`).
    """

    kind: ClassVar[str] = "file"
    short: ClassVar[str] = "path"

    path: str = Field(min_length=1)
    exists: bool = True
    contains: Texts = Field(default_factory=list)
    not_contains: Texts = Field(default_factory=list)
    regex: Pattern | None = None

    @field_validator("path")
    @classmethod
    def _relative(cls, value: str) -> str:
        problem = relative_path_problem(value)
        if problem is not None:
            raise ValueError(
                f"expected the relative path of a file inside the task's working directory, "
                f"got {value!r}: {problem}"
            )
        return value

    def describe(self) -> str:
        """``file notes.txt contains 'x'``."""
        if not self.exists:
            return f"file {self.path} does not exist"
        text = f"file {self.path} exists"
        if self.contains:
            text += " and contains " + ", ".join(map(repr, self.contains))
        if self.not_contains:
            text += " and lacks " + ", ".join(map(repr, self.not_contains))
        if self.regex:
            text += f" and matches /{self.regex}/"
        return text

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Read the file after the run."""
        target = context.working_directory / self.path
        if not self.exists:
            probe = probe_path(target)
            if probe.kind == "unknown":
                return self.outcome(False, f"it {probe.state}")
            return self.outcome(not probe.exists, "the file exists")
        try:
            text = target.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            return self.outcome(False, f"cannot read it: {error.strerror or error}")
        missing = [piece for piece in self.contains if piece not in text]
        if missing:
            return self.outcome(False, f"it lacks {', '.join(map(repr, missing))}")
        present = [piece for piece in self.not_contains if piece in text]
        if present:
            return self.outcome(False, f"it still contains {', '.join(map(repr, present))}")
        if self.regex:
            try:
                found = search(self.regex, text)
            except PatternTimeoutError as error:
                return self.outcome(False, error.message)
            if found is None:
                return self.outcome(False, f"it does not match /{self.regex}/")
        return self.outcome(True)

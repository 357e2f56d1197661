"""A check written in Python: ``python: module:function``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from pydantic import (
    Field,
    PrivateAttr,
)

from gent_core.config import import_object, import_search_path
from gent_core.errors import GentError, describe_error
from gent_eval.checks.base import (
    Check,
    CheckContext,
    CheckOutcome,
)

CheckFunction = Callable[..., Any]


class PythonCheck(Check):
    """A Python function judges the run: ``module:function``, called with the
    :class:`CheckContext` and ``args`` as keyword arguments.

    The function returns ``True``/``False``, or a :class:`CheckOutcome`, or raises
    ``AssertionError`` with the reason it failed. The suite's directory is importable, so a
    ``checks.py`` next to the suite can be named ``checks:my_function``.

    Attributes:
        function: ``module:function``.
        args: Keyword arguments passed to the function.
    """

    kind: ClassVar[str] = "python"
    short: ClassVar[str] = "function"

    function: str = Field(pattern=r"^[\w.]+:[\w.]+$")
    args: dict[str, Any] = Field(default_factory=dict)

    _callable: CheckFunction | None = PrivateAttr(default=None)

    def resolve(self, search_path: Path | None = None) -> None:
        """Import the function (once); a module not installed is looked for in
        ``search_path`` (the suite's folder), then the current directory.

        Raises:
            ValueError: When the module or the function cannot be found.
        """
        folders = [search_path] if search_path is not None else []
        try:
            with import_search_path(*folders, Path.cwd()):
                target = import_object(self.function)
        except GentError as error:
            raise ValueError(error.message) from None
        if not callable(target):
            raise ValueError(f"{self.function!r} is not callable")
        self._callable = target

    def describe(self) -> str:
        """``python check pkg.mod:fn``."""
        return f"python check {self.function}"

    def evaluate(self, context: CheckContext) -> CheckOutcome:
        """Call the function; an exception other than ``AssertionError`` fails the check.

        The failure names the exception's type and message.
        """
        if self._callable is None:
            self.resolve()
        assert self._callable is not None
        try:
            verdict = self._callable(context, **self.args)
        except AssertionError as error:
            return self.outcome(False, str(error) or "assertion failed")
        except Exception as error:  # noqa: BLE001 - a broken check fails, named, not the run
            return self.outcome(False, f"the check raised {describe_error(error)}")
        if isinstance(verdict, CheckOutcome):
            return verdict
        if isinstance(verdict, bool):
            return self.outcome(verdict, "the check returned False")
        return self.outcome(
            False,
            f"the check returned {type(verdict).__name__}; expected True, False or a CheckOutcome",
        )

"""Tools with a hand-written JSON Schema: :class:`BaseTool` (arguments declared as a schema,
not read from a signature).

::

    class Grep(BaseTool):
        name = "grep"
        description = "Find lines matching a pattern in a file."
        parameters = {
            "type": "object",
            "properties": {
                "pattern": {"type": "string"},
                "path": {"type": "string"},
                "max_lines": {"type": "integer", "minimum": 1, "default": 20},
            },
            "required": ["pattern", "path"],
            "additionalProperties": False,
        }

        async def run(
            self, working_directory: Path, pattern: str, path: str, max_lines: int
        ) -> list[str]: ...

The model's arguments are checked against ``parameters`` by
:class:`~gent_core.tools._validator.SchemaValidator` (coercing ``"7"`` to ``7`` where an
integer is expected, filling defaults), then passed to :meth:`BaseTool.run` as keyword
arguments after the working directory.
"""

from __future__ import annotations

import inspect
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from gent_core.tools._arguments import arguments_error, missing_problem, not_an_object_problem
from gent_core.tools._describe import describe_signature
from gent_core.tools._function import check_tool_name
from gent_core.tools._threads import run_sync
from gent_core.tools._validator import SchemaValidator
from gent_core.tools.base import Tool, ToolExample, check_examples
from gent_core.tools.result import ToolResult

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext

__all__ = ["BaseTool"]


class BaseTool(Tool):
    """A tool whose argument schema is written by hand.

    Subclasses set the class attributes :attr:`name`, :attr:`description` and
    :attr:`parameters` (a JSON Schema ``object``; see
    :mod:`gent_core.tools._validator` for the enforced subset) and implement :meth:`run`.
    ``parameters`` may also be set per instance, in ``__init__``. They may set
    :attr:`examples` (:class:`~gent_core.tools.base.ToolExample` objects, or mappings with
    the same keys) for few-shot prompts.

    The class is checked when it is defined: the name must be valid, the schema well formed,
    every example's arguments valid for it, and every schema property a parameter of ``run``
    (unless ``run`` takes ``**kwargs``). A
    parameter of ``run`` without a default is required even when the schema does not list it
    in ``required`` (tools written from a schema often leave it out): a call without it is an
    :class:`~gent_core.errors.InvalidToolArgumentsError` naming it, not a ``TypeError``.

    Attributes:
        name: The name the model writes to call the tool.
        description: What the tool does, for the model.
        parameters: The JSON Schema of the arguments.
        timeout: Seconds a call may take; ``None`` uses the run's default.
        examples: Worked examples for few-shot prompts (task, arguments, result, answer).
    """

    parameters: dict[str, Any] = {"type": "object", "properties": {}}  # noqa: RUF012
    examples: Sequence[ToolExample] = ()
    _run_takes_context: ClassVar[bool] = False
    _run_required: ClassVar[tuple[str, ...]] = ()
    _class_validator: ClassVar[tuple[object, SchemaValidator] | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        run = cls.run
        if getattr(run, "__isabstractmethod__", False):
            return  # an abstract intermediate class
        cls._run_takes_context = "context" in inspect.signature(run).parameters
        cls._run_required = _required_by_run(run)
        if not isinstance(getattr(cls, "name", None), str):
            return  # the name is set per instance
        try:
            check_tool_name(cls.name)
            if isinstance(cls.parameters, dict):
                validator = SchemaValidator(cls.parameters)
                cls._class_validator = (cls.parameters, validator)
                _check_run(run, cls.parameters)
                if cls.examples:
                    check = _schema_check(cls.parameters, validator, cls._run_required)
                    cls.examples = check_examples(cls.name, cls.examples, check)
        except ValueError as error:
            raise TypeError(f"tool class {cls.__qualname__}: {error}") from error

    if TYPE_CHECKING:
        # For type checkers, ``run`` is any callable, so subclasses may declare their
        # arguments as named parameters (``def run(self, working_directory, path: str)``).
        run: Callable[..., Any]
    else:

        @abstractmethod
        async def run(self, working_directory: Path, **kwargs: Any) -> ToolResult | Any:
            """Do the work with validated arguments.

            Args:
                working_directory: The directory the tool works in (``context.working_directory``).
                **kwargs: The validated arguments, by name (defaults from the schema filled in).
                    Declare a parameter named ``context`` to also receive the
                    :class:`~gent_core.context.ExecutionContext`.

            Returns:
                A :class:`ToolResult`, or any raw value (wrapped in a successful result).

            Raises:
                Exception: Any exception propagates to the tool chain, which reports it to the
                    model as an error result.
            """

    def _validator(self) -> SchemaValidator:
        schema = self.parameters
        cached = self._class_validator
        if cached is not None and cached[0] is schema:
            return cached[1]
        own = self.__dict__.get("_own_validator")
        if own is not None and own[0] is schema:
            validator: SchemaValidator = own[1]
            return validator
        try:
            validator = SchemaValidator(schema)
        except ValueError as error:
            raise TypeError(f"tool {self.name!r}: {error}") from error
        self.__dict__["_own_validator"] = (schema, validator)
        return validator

    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and coerce ``arguments`` against :attr:`parameters`.

        Returns:
            The arguments, coerced, with schema defaults filled in.

        Raises:
            InvalidToolArgumentsError: Naming each bad, unknown or missing argument and what
                is accepted, with the tool's signature as a hint.
        """
        candidate: object = arguments
        if not isinstance(candidate, Mapping):
            problems = [not_an_object_problem(candidate)]
        else:
            value, problems = self._validator().validate(dict(candidate))
            listed = self.parameters.get("required", ())
            missing = [n for n in self._run_required if n not in value and n not in listed]
            if missing and not any(problem.path == "" for problem in problems):
                problems = [*problems, missing_problem(missing)]
            if not problems:
                return dict(value)
        raise arguments_error(self.name, problems, signature=describe_signature(self))

    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        """Run :meth:`run` (in a worker thread if it is sync) and wrap its return value.

        Exceptions raised by :meth:`run` propagate; the tool chain turns them into error
        results.
        """
        keywords = dict(arguments)
        if self._run_takes_context:
            keywords["context"] = context
        if inspect.iscoroutinefunction(self.run):
            result = await self.run(context.working_directory, **keywords)
        else:
            result = await run_sync(self.run, context.working_directory, **keywords)
        return ToolResult.wrap(result)


def _check_run(run: Any, schema: dict[str, Any]) -> None:
    """Check that ``run`` accepts what the schema describes (raises ``ValueError``)."""
    properties = schema.get("properties", {})
    everything = list(inspect.signature(run).parameters.values())
    injected = [everything[1].name] if len(everything) > 1 else []  # the working directory
    injected += [p.name for p in everything[2:] if p.name == "context"]
    for name in injected:
        if name in properties:
            raise ValueError(
                f"the schema property {name!r} collides with run()'s parameter {name!r}, "
                "which gent fills in (the working directory, the execution context); rename "
                "that parameter of run() (or take the arguments as **kwargs)"
            )
    parameters = everything[2:]  # self, working_directory
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)
    names = {p.name for p in parameters}
    if not takes_any and (unaccepted := sorted(set(properties) - names)):
        raise ValueError(f"run() does not accept the schema properties {unaccepted}")
    for name in _required_by_run(run):
        if name not in properties:
            raise ValueError(
                f"run() parameter {name!r} has no default and is not in the schema's "
                "properties, so no call could give it; add it to the schema or give it a default"
            )


def _schema_check(
    schema: dict[str, Any], validator: SchemaValidator, run_required: tuple[str, ...]
) -> Callable[[Mapping[str, Any]], None]:
    """A check of arguments against ``schema`` and the parameters ``run`` requires (raises
    ``ValueError`` naming each problem).
    """
    listed = schema.get("required", ())

    def check(arguments: Mapping[str, Any]) -> None:
        value, problems = validator.validate(dict(arguments))
        missing = [name for name in run_required if name not in value and name not in listed]
        if missing:
            problems = [*problems, missing_problem(missing)]
        if problems:
            raise ValueError(" ".join(problem.render() for problem in problems))

    return check


def _required_by_run(run: Any) -> tuple[str, ...]:
    """The parameters of ``run`` (after ``self`` and the working directory) without a default."""
    parameters = list(inspect.signature(run).parameters.values())[2:]
    return tuple(
        parameter.name
        for parameter in parameters
        if parameter.kind not in (parameter.VAR_KEYWORD, parameter.VAR_POSITIONAL)
        and parameter.name != "context"
        and parameter.default is parameter.empty
    )

"""The :class:`Tool` contract: a named, described, schema-checked callable for the model,
and :class:`ToolExample`, a worked example a tool declares for prompts.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gent_core.errors import describe_error

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext
    from gent_core.tools.result import ToolResult

__all__ = ["Tool", "ToolExample", "check_examples"]


@dataclass(frozen=True)
class ToolExample:
    """A worked example of a tool: a task, the arguments that solve it, what the tool returned
    for them, and the final answer.

    Few-shot prompts show a tool's examples as whole runs (task, call, observation, answer),
    so a model sees how a task's details become arguments and how an answer restates the
    observation. Several examples with different values keep a small model from copying one.

    Attributes:
        task: What a user asks (``"What is 12.5 * 8?"``).
        arguments: The arguments of the call that solves it (valid for the tool's schema:
            checked when the tool is made).
        result: What the tool returns for these arguments: its raw output, written into the
            observation by the agent's tool chain. It must be true: what the tool really
            returns for ``arguments`` (for a tool whose output depends on the moment or on
            files, what it returns at a fixed, plainly made-up moment or for the files the
            example names).
        answer: The final answer, restating the result (``"12.5 * 8 = 100."``); ``None``
            lets the prompt say it from the result.
    """

    task: str
    arguments: Mapping[str, Any] = field(default_factory=dict, hash=False)
    result: Any = field(default=None, hash=False)
    answer: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.task, str) or not self.task.strip():
            raise ValueError("a tool example needs a task: what a user asks")
        if not isinstance(self.arguments, Mapping):
            raise ValueError(
                f"a tool example's arguments must be a mapping of argument names to values, "
                f"not {type(self.arguments).__name__}"
            )
        if self.answer is not None and (
            not isinstance(self.answer, str) or not self.answer.strip()
        ):
            raise ValueError("a tool example's answer must be text (or None to derive it)")
        object.__setattr__(self, "arguments", MappingProxyType(dict(self.arguments)))

    @classmethod
    def of(cls, value: ToolExample | Mapping[str, Any]) -> ToolExample:
        """Return ``value`` as a :class:`ToolExample`: itself, or one made from a mapping with
        the keys ``task``, ``arguments``, ``result`` and (optionally) ``answer``.

        Raises:
            ValueError: Naming the keys that are unknown or missing.
        """
        if isinstance(value, ToolExample):
            return value
        if not isinstance(value, Mapping):
            raise ValueError(
                "a tool example is a ToolExample or a mapping with the keys task, arguments, "
                f"result and answer, not {type(value).__name__}"
            )
        known = {"task", "arguments", "result", "answer"}
        unknown = sorted(str(key) for key in value if key not in known)
        if unknown:
            raise ValueError(
                f"unknown key(s) {', '.join(unknown)} in a tool example; accepted: task, "
                "arguments, result, answer"
            )
        if "task" not in value:
            raise ValueError("a tool example needs a task: what a user asks")
        return cls(**dict(value))


def check_examples(
    tool_name: str,
    examples: Iterable[ToolExample | Mapping[str, Any]],
    validate: Callable[[Mapping[str, Any]], object],
) -> tuple[ToolExample, ...]:
    """Return ``examples`` as :class:`ToolExample` objects, each one's arguments checked with
    ``validate`` (a tool's :meth:`Tool.validate_arguments`).

    Raises:
        ValueError: Naming the tool, the example and what is wrong with it.
    """
    checked: list[ToolExample] = []
    for number, value in enumerate(examples, start=1):
        try:
            example = ToolExample.of(value)
        except (TypeError, ValueError) as error:
            raise ValueError(f"tool {tool_name!r}, example {number}: {error}") from None
        try:
            validate(example.arguments)
        except Exception as error:  # noqa: BLE001 - InvalidToolArgumentsError, a validator's own
            detail = getattr(error, "model_message", None) or describe_error(error)
            raise ValueError(
                f"tool {tool_name!r}, example {number} ({example.task!r}): its arguments are "
                f"not valid for the tool: {detail}"
            ) from None
        checked.append(example)
    return tuple(checked)


class Tool(ABC):
    """A tool the model can call.

    Attributes:
        name: The name the model writes to call the tool.
        description: What the tool does, for the model.
        timeout: Seconds a call may take; ``None`` uses the run's default.
        writes: Whether the tool changes anything outside the run (files, repositories,
            remote state). An agent configured from a file accepts such a tool only when its
            config says ``allow_writes: true``.
        examples: Worked examples (:class:`ToolExample`: task, arguments, true result,
            answer) that few-shot prompts show; none by default (prompts then show a call
            made from the argument schema).
    """

    name: str
    description: str = ""
    timeout: float | None = None
    writes: bool = False
    examples: Sequence[ToolExample] = ()

    @property
    @abstractmethod
    def parameters(self) -> dict[str, Any]:
        """The JSON Schema (an ``object`` schema) of the tool's arguments."""

    @abstractmethod
    def validate_arguments(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Check and coerce the model's arguments against :attr:`parameters`.

        Raises:
            InvalidToolArgumentsError: Naming each bad argument and what is accepted.
        """

    @abstractmethod
    async def call(self, arguments: Mapping[str, Any], context: ExecutionContext) -> ToolResult:
        """Run the tool with already validated ``arguments``.

        Sync work must not block the event loop; exceptions may propagate (the tool chain
        turns them into error results).
        """

    def to_llm_schema(self) -> dict[str, Any]:
        """Return the OpenAI function-calling description of the tool."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

"""The ``natural`` middleware: a native-calls history becomes text before the model sees it.

Switched on in an agent config with ``natural: true`` (or ``natural: {<options>}``, or
``middleware: [natural]``). Before each model call (the ``gent_transform_messages`` hook)
every tool turn of the conversation, such as a history given with
``Agent.run(task, history=...)`` that came from a provider's native function calling, is
written as text (see :func:`~gent_natural.native_to_text.to_text`); the agent's own text messages
pass through untouched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gent_core.cliframe import docs_url
from gent_core.errors import GentError
from gent_core.hookspecs import hookimpl
from gent_natural.native_to_text import convert_to_text
from gent_natural.options import NaturalOptions

if TYPE_CHECKING:
    from gent_core.context import ExecutionContext
    from gent_core.formats import TextFormat
    from gent_core.messages import Message

__all__ = ["NaturalMiddleware", "lookup_format"]


def lookup_format(name: str) -> TextFormat:
    """Create the text format registered as ``name`` (``"xml"``, ``"markdown"``...).

    Raises:
        GentError: No such format is installed (listing the installed ones).
    """
    from gent_core import Registry, get_plugin_manager
    from gent_core.formats import TextFormat

    created = Registry.from_plugin_manager(get_plugin_manager()).create("format", name)
    if not isinstance(created, TextFormat):
        raise GentError(f"the format {name!r} is not a TextFormat; its plugin is broken")
    return created


class NaturalMiddleware:
    """Writes native tool turns as text before every model call.

    Args:
        format: Write calls and results as ``tool_call`` / ``tool_response`` sections of
            this registered text format (``"xml"``, ``"markdown"``) instead of natural tags.
        **options: The fields of :class:`~gent_natural.options.NaturalOptions`
            (``pretty_print_json``, ``max_response_length``, ``separator``,
            ``role_strategy``, ``metadata_strategy``, ``enabled``).

    Raises:
        GentError: An unknown option or a bad value, saying what is accepted.
    """

    def __init__(self, *, format: str | None = None, **options: Any) -> None:
        try:
            self.options = NaturalOptions.from_mapping(options)
        except (TypeError, ValueError) as error:
            raise GentError(
                str(error),
                hint="Options of natural: format and the fields of "
                f"NaturalOptions (see {docs_url('natural.md')}).",
            ) from None
        self.text_format = lookup_format(format) if format is not None else None

    @hookimpl
    def gent_transform_messages(self, messages: list[Message], context: ExecutionContext) -> None:
        """Replace every tool turn of ``messages`` by its text (in place)."""
        del context
        if any(m.tool_calls or m.role == "tool" for m in messages):
            messages[:] = convert_to_text(
                messages, self.options, text_format=self.text_format
            ).messages

    def __repr__(self) -> str:
        return f"NaturalMiddleware({self.options})"

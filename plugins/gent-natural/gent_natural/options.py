"""The options of the native -> text transformation: how native calls and results are written
as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

__all__ = ["MetadataStrategy", "NaturalOptions", "RoleStrategy"]

RoleStrategy = Literal["preserve", "always_user", "always_assistant", "by_content"]
"""The role of the text message that replaces a tool turn.

* ``preserve``: the role of the turn's first message (``assistant``);
* ``always_user`` / ``always_assistant``: that role;
* ``by_content``: ``user`` when the text ends with a tool response (it reads like an
  observation awaiting the assistant's reply), else ``assistant``.
"""

MetadataStrategy = Literal["last_wins", "first_wins", "combine"]
"""How the metadata of a turn's messages is merged into the text message.

* ``last_wins``: a key takes the value of the last message that has it;
* ``first_wins``: a key takes the value of the first message that has it;
* ``combine``: a key with one distinct value keeps it; a key with several distinct values
  gets the list of them, in order.
"""

_ROLE_STRATEGIES: tuple[str, ...] = get_args(RoleStrategy)
_METADATA_STRATEGIES: tuple[str, ...] = get_args(MetadataStrategy)


@dataclass(frozen=True)
class NaturalOptions:
    """How tool turns are written as text.

    Attributes:
        enabled: ``False`` turns the transformation off: every message passes through.
        pretty_print_json: Write call arguments, and results that are JSON objects or
            lists, indented by 2 spaces; ``False`` writes them as they are.
        max_response_length: Results longer than this many characters are cut, with a note
            saying how much was cut; ``None`` keeps them whole.
        separator: The line written between the calls of one assistant message.
        role_strategy: The role of the text message (see :data:`RoleStrategy`).
        metadata_strategy: How metadata is merged (see :data:`MetadataStrategy`).
    """

    enabled: bool = True
    pretty_print_json: bool = True
    max_response_length: int | None = 4000
    separator: str = "---"
    role_strategy: RoleStrategy = "preserve"
    metadata_strategy: MetadataStrategy = "last_wins"

    def __post_init__(self) -> None:
        for name in ("enabled", "pretty_print_json"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false, got {getattr(self, name)!r}")
        limit = self.max_response_length
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise ValueError(f"max_response_length must be a whole number, got {limit!r}")
        if limit is not None and limit < 1:
            raise ValueError(
                f"max_response_length must be at least 1 (or null for no limit), got {limit}"
            )
        if not isinstance(self.separator, str) or not self.separator.strip():
            raise ValueError(f"separator must be a non-blank string, got {self.separator!r}")
        if "\n" in self.separator or "<" in self.separator:
            raise ValueError("separator must be one line without '<'")
        if self.role_strategy not in _ROLE_STRATEGIES:
            raise ValueError(
                f"unknown role_strategy {self.role_strategy!r}; accepted: "
                + ", ".join(_ROLE_STRATEGIES)
            )
        if self.metadata_strategy not in _METADATA_STRATEGIES:
            raise ValueError(
                f"unknown metadata_strategy {self.metadata_strategy!r}; accepted: "
                + ", ".join(_METADATA_STRATEGIES)
            )

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any]) -> NaturalOptions:
        """Build options from a config mapping, rejecting unknown keys by name.

        Raises:
            ValueError: An unknown key (listing the accepted ones) or a bad value.
        """
        known = [field.name for field in fields(cls)]
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(
                f"unknown natural option(s) {', '.join(unknown)}; accepted: {', '.join(known)}"
            )
        return cls(**dict(options))

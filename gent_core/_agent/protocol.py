"""What a run needs from its agent, as a protocol: the run and the repair of failed calls use
the agent's parts without depending on the agent module (which starts runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gent_core.formats import TextFormat
    from gent_core.model import Model, OutputStructure
    from gent_core.sections import Section
    from gent_core.termination import Termination
    from gent_core.toolchain import ToolChain

__all__ = ["RunAgent"]


class RunAgent(Protocol):
    """What a run needs from its agent (a :class:`~gent_core._agent.Agent`): its parts and
    settings. A protocol, so that the run does not depend on the agent module (which starts
    runs).
    """

    @property
    def model(self) -> Model:
        """The model back end."""
        ...

    @property
    def format(self) -> TextFormat:
        """The text format."""
        ...

    @property
    def toolchain(self) -> ToolChain | None:
        """The tool chain, if any."""
        ...

    @property
    def termination(self) -> Termination:
        """How the answer is read."""
        ...

    @property
    def max_tokens(self) -> int | None:
        """Upper bound of tokens per model call."""
        ...

    @property
    def temperature(self) -> float | None:
        """Sampling temperature."""
        ...

    def sections(self) -> list[Section]:
        """The sections the model is asked to write, in prompt order."""
        ...

    def closing_sections(self) -> list[str]:
        """Sections whose end ends a step."""
        ...

    def expected_sections_text(self) -> str:
        """What every step must contain (``"action or answer"``)."""
        ...

    def structure(self) -> OutputStructure:
        """The expected output structure."""
        ...

    def system_prompt(self) -> str:
        """The exact system prompt."""
        ...

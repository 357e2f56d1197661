"""Registration hooks of gent-template. Keep this module light: no heavy imports here."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gent_core import Termination, hookimpl


class TemplateTermination(Termination):
    """TEMPLATE: replace with your component."""

    def parse(self, content: str) -> str | None:
        """Return the trimmed answer, or ``None`` when it is empty."""
        return content.strip() or None


@hookimpl
def gent_register_terminations() -> Mapping[str, Callable[..., Termination]]:
    """Supply the ``template`` termination."""
    return {"template": TemplateTermination}

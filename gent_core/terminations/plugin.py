"""The built-in ``core`` plugin: registers gent-core's own terminations through the same hook
as any third-party plugin (declared as the ``core`` entry point of gent-core).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gent_core.plugins.hookspecs import hookimpl
from gent_core.termination import Termination


@hookimpl
def gent_register_terminations() -> Mapping[str, Callable[..., Termination]]:
    """Supply the ``text`` and ``json`` terminations."""
    from gent_core.terminations.text import TextTermination
    from gent_core.terminations.typed import JSONTermination

    return {"text": TextTermination, "json": JSONTermination}

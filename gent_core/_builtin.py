"""The built-in ``core`` plugin of gent-core, declared as its ``core`` entry point.

It goes through the same hooks as any third-party plugin and supplies the ``text`` and
``json`` terminations and the ``scripted`` model (replays outputs given in the config: for
dry runs of a config file and for tests).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gent_core.hookspecs import hookimpl
from gent_core.model import Model
from gent_core.termination import Termination


@hookimpl
def gent_register_terminations() -> Mapping[str, Callable[..., Termination]]:
    """Supply the ``text`` and ``json`` terminations."""
    from gent_core._terminations.text import TextTermination
    from gent_core._terminations.typed import JSONTermination

    return {"text": TextTermination, "json": JSONTermination}


@hookimpl
def gent_register_models() -> Mapping[str, Callable[..., Model]]:
    """Supply the ``scripted`` model."""
    from gent_core.testing._scripted import ScriptedModel

    return {"scripted": ScriptedModel}

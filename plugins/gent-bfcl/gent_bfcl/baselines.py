"""The baselines ``gent eval bfcl:`` runs beside gent's configurations, on the same model.

* ``prompt``: BFCL's own prompt mode (:mod:`gent_bfcl.runner`), labelled :data:`BASELINE`
  (``bfcl-prompt``): BFCL's system prompt and decoder through the model's own back end;
* ``native``: native function calling (:mod:`gent_bfcl.native`), labelled :data:`NATIVE`
  (``native-fc``): the task's functions as the server's ``tools`` parameter. It needs an
  OpenAI-compatible server; on any other model (the in-process ``llamacpp``) it is skipped
  with a note saying so, which is not an error. When the server drops the tools from the
  prompt (:func:`~gent_bfcl.native.tools_ignored`: a chat template that does not render
  them), the note says so too.

``--baseline prompt,native`` (the default), ``--baseline prompt``, ``--baseline none``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gent_bfcl.native import NATIVE, NATIVE_MAX_TOKENS
from gent_bfcl.runner import BASELINE

if TYPE_CHECKING:
    from gent_bfcl.data import BFCLTask
    from gent_bfcl.runner import TaskResult
    from gent_core import Model

__all__ = [
    "BASELINES",
    "BASELINE_MAX_TOKENS",
    "DEFAULT_BASELINES",
    "BaselineRun",
    "parse_baselines",
    "run_baselines",
]

BASELINES: Mapping[str, str] = {"prompt": BASELINE, "native": NATIVE}
"""Each baseline's name on the command line and its label in results."""

DEFAULT_BASELINES = ("prompt", "native")
"""The baselines run when ``--baseline`` is not given."""

BASELINE_MAX_TOKENS = 48
"""Tokens per answer in BFCL's prompt mode when ``--max-tokens`` is not given: a call fits,
the prose a model writes instead is cut short."""

_DESCRIPTIONS = {
    BASELINE: "BFCL's own prompt mode (its system prompt and decoder, no grammar)",
    NATIVE: "native function calling (the task's functions sent as the server's 'tools', "
    "its 'tool_calls' judged; a call the model writes as text instead is no call)",
}


@dataclass(frozen=True)
class BaselineRun:
    """What became of one baseline.

    Attributes:
        label: Its label in results (``bfcl-prompt``, ``native-fc``).
        ran: Whether it ran (``False``: skipped, and ``note`` says why).
        note: A line for the report: what the baseline is and on which model, or why it was
            skipped.
    """

    label: str
    ran: bool
    note: str

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready record."""
        return {"ran": self.ran, "note": self.note}


def parse_baselines(names: Sequence[str] | None) -> tuple[str, ...]:
    """The baselines asked for, in order, repeats dropped (``None``: :data:`DEFAULT_BASELINES`).

    Raises:
        ValueError: For a name that is not a baseline, saying which are.
    """
    if names is None:
        return DEFAULT_BASELINES
    for name in names:
        if name not in BASELINES:
            raise ValueError(
                f"unknown baseline {name!r}; bfcl: has prompt (BFCL's prompt mode) and native "
                "(native function calling through the server's tools parameter), or none"
            )
    return tuple(dict.fromkeys(names))


async def run_baselines(
    names: Sequence[str],
    model: Model,
    model_label: str,
    tasks: Sequence[BFCLTask],
    *,
    max_tokens: int | None,
    on_result: Callable[[TaskResult], None],
) -> list[BaselineRun]:
    """Run the baselines ``names`` on ``model`` (the model of the configuration
    ``model_label``), each task's result to ``on_result``; say what became of each.
    ``max_tokens`` (``None``: :data:`BASELINE_MAX_TOKENS` for the prompt mode,
    :data:`~gent_bfcl.native.NATIVE_MAX_TOKENS` for native calling) caps every answer.
    """
    from gent_bfcl.native import run_native, server_of, tools_ignored
    from gent_bfcl.runner import run_baseline

    runs = []
    for name in names:
        label = BASELINES[name]
        on = f"{label}: {_DESCRIPTIONS[label]}, on the model of {model_label!r}."
        if name == "prompt":
            limit = max_tokens or BASELINE_MAX_TOKENS
            await run_baseline(model, tasks, max_tokens=limit, on_result=on_result)
            runs.append(BaselineRun(label, True, on))
            continue
        server = server_of(model)
        if isinstance(server, str):
            runs.append(BaselineRun(label, False, f"{label}: skipped, {server}."))
            continue
        limit = max_tokens or NATIVE_MAX_TOKENS
        await run_native(server, tasks, max_tokens=limit, on_result=on_result)
        if tasks and await tools_ignored(server, tasks[0]):
            on += (
                " The server dropped the tools: a request with them counts as many prompt "
                "tokens as one without, so its chat template does not show the functions to "
                "the model, which then cannot call them."
            )
        runs.append(BaselineRun(label, True, on))
    return runs

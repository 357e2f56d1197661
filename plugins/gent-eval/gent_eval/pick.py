"""``gent eval --pick FILE``: the best configuration of an evaluation, written as a config file.

The winner is the configuration with the highest success rate (for a suite file: then the
highest lower bound of its 95% interval; for a suite source: the score the source gives,
BFCL's accuracy over every task). The file is the winner's own config file (the built-in
agent's YAML without one) with its ``--matrix`` values set, as ``gent eval`` set them, and
the measured table in comments above it, so "which format does my model call tools best in"
is answered by a file ``gent run`` takes.

The config is re-read from its file's text, so ``${VAR}`` references stay references (no
credential is written out). Paths relative to the original file (a tool module beside it)
are relative to the new file: write it next to the original.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from gent_eval.configs import Configuration

__all__ = ["baseline_lines", "best", "picked_config", "text_table"]


def text_table(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """The table as lines of text, columns padded (the first left-aligned)."""
    cells = [list(columns), *[[str(cell) for cell in row] for row in rows]]
    widths = [max(len(row[index]) for row in cells) for index in range(len(columns))]
    return [
        "  ".join(
            cell.ljust(width) if index == 0 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in cells
    ]


def best(scores: Mapping[str, tuple[float, ...]]) -> str:
    """The label with the highest score (tuples compare in order; the first label wins ties).

    Raises:
        ValueError: When there is no score.
    """
    if not scores:
        raise ValueError("no configuration was measured")
    return max(scores, key=lambda label: scores[label])


def baseline_lines(label: str, score: float, baselines: Mapping[str, float]) -> list[str]:
    """What the baselines say about the winner ``label`` (its ``score``): each baseline's score
    beside it, and, when one scored higher, that it beat every configuration. No line without
    baselines.
    """
    if not baselines:
        return []
    shown = ", ".join(f"{name} {value:.0%}" for name, value in baselines.items())
    lines = [f"baselines on the same model: {shown}; {label!r} {score:.0%}."]
    beaten = [name for name, value in baselines.items() if value > score]
    if beaten:
        lines.append(
            f"the baseline {' and '.join(repr(name) for name in beaten)} scored higher than "
            "every configuration measured: on these tasks this model does better without gent."
        )
    return lines


def _source_text(configuration: Configuration) -> str:
    from gent_core.config import default_agent_yaml

    if configuration.source == "<default agent>":
        return default_agent_yaml()
    return Path(configuration.source).read_text(encoding="utf-8")


def picked_config(
    configuration: Configuration,
    *,
    title: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    measured: int,
    baselines: Mapping[str, float] | None = None,
    score: float | None = None,
) -> str:
    """The config file's text: comments (what was measured, the table, the baselines against
    the winner's ``score`` (:func:`baseline_lines`), where the config comes from), then the
    configuration's YAML with its matrix values set.

    Raises:
        OSError: When the original config file cannot be read again.
        ValueError: When a matrix key cannot be set in the file's data.
    """
    from gent_core.config import set_config_key

    data: Any = yaml.safe_load(_source_text(configuration)) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{configuration.source} does not hold a mapping")
    for key, value in configuration.overrides.items():
        set_config_key(data, key, value)
    overrides = " ".join(f"{key}={value}" for key, value in configuration.overrides.items())
    lines = [
        f"# Picked by gent eval --pick: {configuration.label!r}, the best of {measured} "
        f"configurations on {title} ({time.strftime('%Y-%m-%d')}).",
        "#",
        *[f"# {line}".rstrip() for line in text_table(columns, rows)],
        "#",
        *[
            f"# {line}"
            for line in baseline_lines(configuration.label, score or 0.0, baselines or {})
        ],
        f"# From {configuration.source}" + (f", with {overrides}." if overrides else "."),
    ]
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)
    return "\n".join(lines) + "\n" + body

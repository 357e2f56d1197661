"""Choosing which declared tool examples a few-shot prompt shows for a task.

A small model copies the example nearest to the task it is given: its tool, its argument
shapes, its wording. So the examples shown for a task are the ones most like it, with the
most alike placed last, right before the task; every tool that declares examples still gets
one, so the model sees that the tools differ.

"Alike" is lexical: the words two texts share, each weighted by how rare it is among the
candidates (inverse document frequency), so words many examples have count for little and
telling ones ("times", "time", "date") count for much; English function words ("what", "is",
"in") count for nothing. Every number reads as the same word, so a task with numbers leans
to the examples with numbers. An example's text is its task plus its tool's name (a tool's
description would match on words like "get" or "return" that say nothing of the task). This
is cheap (linear in the text), needs no model, and knows nothing of particular tools or
questions.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gent_core.tools.base import Tool, ToolExample

__all__ = ["choose_examples", "choose_positions", "is_alike", "words"]

_WORD = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
_NUMBER = "<number>"


def words(text: str) -> set[str]:
    """The distinct words of ``text``, lower-cased, each number written as one token."""
    return {_NUMBER if match[0].isdigit() else match.lower() for match in _WORD.findall(text)}


_FUNCTION_WORDS = frozenset(
    re.findall(
        r"\w+",
        """a an the and or but if of to in on at by for from with as into than then so is are
        was were be been am do does did it its this that these those there here what which who
        whom whose when where why how i you he she we they me my your our their us them can
        could will would shall should may might must have has had not no yes all any each
        every some""",
    )
)
"""English function words: shared by tasks about anything, so they tell nothing about which
example is alike."""


def _example_words(tool: Tool, example: ToolExample) -> set[str]:
    name = tool.name.replace("_", " ").replace("-", " ").replace(":", " ")
    return words(f"{example.task} {name}")


def _scores(task: str, candidates: Sequence[tuple[Tool, ToolExample]]) -> list[float]:
    texts = [_example_words(tool, example) for tool, example in candidates]
    counts: Counter[str] = Counter(word for text in texts for word in text)
    total = len(texts)
    asked = words(task) - _FUNCTION_WORDS
    return [
        sum(math.log((1 + total) / (1 + counts[word])) for word in asked & text) for text in texts
    ]


def is_alike(task: str, candidates: Sequence[tuple[Tool, ToolExample]]) -> bool:
    """Whether ``task`` shares a word with any of ``candidates`` (English function words aside;
    every number is the same word, as for the choice).

    A word every candidate has (a number, when every example has one) tells nothing about
    which candidate to show, but it still says the task is of their kind.
    """
    asked = words(task) - _FUNCTION_WORDS
    return any(asked & _example_words(tool, example) for tool, example in candidates)


def choose_examples(
    task: str, candidates: Sequence[tuple[Tool, ToolExample]], count: int
) -> list[tuple[Tool, ToolExample]]:
    """Up to ``count`` of ``candidates`` to show for ``task``, least alike first (see
    :func:`choose_positions`).
    """
    return [candidates[index] for index in choose_positions(task, candidates, count)]


def choose_positions(
    task: str, candidates: Sequence[tuple[Tool, ToolExample]], count: int
) -> list[int]:
    """The positions in ``candidates`` of up to ``count`` examples to show for ``task``,
    least alike first.

    The best example of each tool comes in first (tools in order of their best example), then
    the next most alike of any tool. The result is ordered by rising likeness, so the
    example most like the task is the last one before it; ties keep the candidates' order.

    Args:
        task: The user's task.
        candidates: Declared examples with their tools, in the order to prefer on ties.
        count: How many to choose at most.
    """
    if count <= 0 or not candidates:
        return []
    scores = _scores(task, candidates)
    ranked = sorted(range(len(candidates)), key=lambda index: -scores[index])
    chosen: list[int] = []
    seen_tools: set[str] = set()
    for index in ranked:
        name = candidates[index][0].name
        if name not in seen_tools:
            seen_tools.add(name)
            chosen.append(index)
    chosen = chosen[:count]
    for index in ranked:
        if len(chosen) == count:
            break
        if index not in chosen:
            chosen.append(index)
    chosen.sort(key=lambda index: scores[index])
    return chosen

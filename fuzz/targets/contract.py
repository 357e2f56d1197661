"""What every fuzz target checks: the parsers' documented contract.

Each target turns the fuzzer's bytes into a text (and a chunking of it) with
:func:`decode`, runs one parser on it and checks, with the helpers here:

* only the errors the parser documents are raised (:func:`outcome`);
* streaming gives what the one-shot parse gives (:func:`chunked`);
* every value read respects gent's bounds (:func:`check_args`);
* what the parser read, written back by its own writer, reads back the same.

A broken contract is an ``AssertionError`` (or the undocumented exception itself), which
atheris reports as a crash and the corpus replay test as a failure.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, TypeVar

from gent_core._serialize import check_value

__all__ = ["check_args", "chunked", "decode", "outcome"]

T = TypeVar("T")


def decode(data: bytes) -> tuple[int, str]:
    """Split fuzz input into a choice byte (chunking, modes) and the text to parse.

    The text is the rest of the input as UTF-8, invalid bytes replaced (a model's text
    always arrives decoded).
    """
    if not data:
        return 0, ""
    return data[0], data[1:].decode("utf-8", "replace")


def chunked(text: str, choice: int) -> list[str]:
    """Cut ``text`` into chunks the way ``choice`` says: sizes 1 to ``choice % 16 + 1``,
    drawn from a generator seeded with ``choice`` (the same input always gives the same
    chunks).
    """
    rng = random.Random(choice)
    largest = choice % 16 + 1
    chunks: list[str] = []
    position = 0
    while position < len(text):
        size = rng.randint(1, largest)
        chunks.append(text[position : position + size])
        position += size
    return chunks


def outcome(run: Callable[[], T], *errors: type[BaseException]) -> T | type[BaseException]:
    """``run()``'s result, or the type of the documented error it raised."""
    try:
        return run()
    except errors as error:
        return type(error)


def check_args(args: Any, where: str) -> None:
    """Arguments read from a model's text are a dict of JSON values within gent's bounds,
    which a strict JSON writer can write.
    """
    assert isinstance(args, dict), f"{where}: arguments are {type(args).__name__}, not a dict"
    assert all(isinstance(key, str) for key in args), f"{where}: a key is not a string"
    check_value(args, name=where)  # raises ValueBoundsError: a bug, not a documented error
    json.dumps(args, allow_nan=False)  # plain JSON values only

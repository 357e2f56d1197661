"""Built-in terminations: plain text answers and typed (pydantic) JSON answers."""

from gent_core._terminations.text import TextTermination
from gent_core._terminations.typed import JSONTermination

__all__ = ["JSONTermination", "TextTermination"]

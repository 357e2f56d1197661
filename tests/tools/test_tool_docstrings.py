"""Docstring parsing: Google, numpy and Sphinx styles."""

from __future__ import annotations

from gent_core.tools._docstrings import parse_docstring


def test_google_style() -> None:
    parsed = parse_docstring(
        """Summary line.

        Body text.

        Args:
            path (str): The path,
                continued here.
            *items: Extra items.
            **options: Options.

        Returns:
            Something.
        """
    )
    assert parsed.arguments == {
        "path": "The path, continued here.",
        "items": "Extra items.",
        "options": "Options.",
    }
    assert parsed.description == "Summary line.\n\nBody text.\n\nReturns:\n    Something."


def test_numpy_style() -> None:
    parsed = parse_docstring(
        """Summary line.

        Parameters
        ----------
        path : str
            The path to read,
            on two lines.
        count : int, optional
            How many.

        Returns
        -------
        str
            The text.
        """
    )
    assert parsed.arguments == {"path": "The path to read, on two lines.", "count": "How many."}
    assert parsed.description == "Summary line.\n\nReturns\n-------\nstr\n    The text."


def test_sphinx_style() -> None:
    parsed = parse_docstring(
        """Summary line.

        :param path: The path,
            continued.
        :param int count: How many.
        :type path: str
        :returns: The text.
        """
    )
    assert parsed.arguments == {"path": "The path, continued.", "count": "How many."}
    assert parsed.description == "Summary line.\n\n:returns: The text."


def test_no_docstring_and_no_args_section() -> None:
    assert parse_docstring(None).description == ""
    assert parse_docstring("Just a summary.").description == "Just a summary."
    assert parse_docstring("Just a summary.").arguments == {}

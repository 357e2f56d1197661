"""Every Python block of the README, the docs and the plugin READMEs runs, and prints what the
page shows (see ``doc_blocks.py`` for the conventions); and the checker itself catches a page
that is wrong.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from tests.docs.doc_blocks import check_page, parse_page

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "plugins").glob("*/README.md")),
]


# The import packages of this repository's plugins. A page may need one that is not installed
# here (tox's environments of other Pythons install only the pure-Python plugins); a block that
# imports any other missing package (an example's imaginary ``gent_weather``) fails: such
# blocks must be marked ``{test="skip"}``.
REPOSITORY_PACKAGES = {
    folder.name.replace("-", "_")
    for folder in (ROOT / "plugins").iterdir()
    if (folder / "pyproject.toml").is_file() and not folder.name.startswith("_")
}


def _missing_gent_packages(code: str) -> list[str]:
    """The repository's plugin packages a block imports that are not installed here."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []  # the run reports it
    names = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
    }
    tops = sorted({name.split(".")[0] for name in names} & REPOSITORY_PACKAGES)
    return [top for top in tops if importlib.util.find_spec(top) is None]


def _missing_owner(document: Path) -> set[str]:
    """A plugin's README needs that plugin (its examples may use it by name, in a config)."""
    if document.name != "README.md" or document.parent.parent != ROOT / "plugins":
        return set()
    package = document.parent.name.replace("-", "_")
    if package in REPOSITORY_PACKAGES and importlib.util.find_spec(package) is None:
        return {package}
    return set()


def _has_slow_blocks(document: Path) -> bool:
    return any(block.is_python and block.slow for block in parse_page(document).blocks)


SLOW_DOCUMENTS = [document for document in DOCUMENTS if _has_slow_blocks(document)]
"""Pages with ``{test="slow"}`` blocks: run whole, real model included, with the slow tests."""


@pytest.mark.parametrize("document", DOCUMENTS, ids=[str(d.relative_to(ROOT)) for d in DOCUMENTS])
def test_page_blocks_run_and_print_what_the_page_shows(document: Path, tmp_path: Path) -> None:
    _check_document(document, tmp_path, slow=False)


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.parametrize(
    "document", SLOW_DOCUMENTS, ids=[str(d.relative_to(ROOT)) for d in SLOW_DOCUMENTS]
)
def test_page_blocks_run_on_the_bundled_model(document: Path, tmp_path: Path) -> None:
    _check_document(document, tmp_path, slow=True)


def _check_document(document: Path, tmp_path: Path, *, slow: bool) -> None:
    page = parse_page(document.relative_to(ROOT), document.read_text(encoding="utf-8"))
    missing = sorted(
        {
            name
            for block in page.blocks
            if block.is_python and block.runs
            for name in _missing_gent_packages(block.code)
        }
        | _missing_owner(document)
    )
    if missing:
        # The tox environments of other Pythons install only the pure-Python plugins.
        pytest.skip(f"needs {', '.join(missing)}, not installed in this environment")
    problems = check_page(page, tmp_path, slow=slow)
    assert not problems, "\n\n".join(problems)


# --------------------------------------------------------------------------- the checker


def _check(tmp_path: Path, text: str) -> list[str]:
    page_file = tmp_path / "page.md"
    page_file.write_text(text)
    workdir = tmp_path / "work"
    workdir.mkdir()
    return check_page(parse_page(page_file), workdir)


def test_a_block_printing_what_the_page_shows_passes(tmp_path: Path) -> None:
    page = '# Page\n\n```python\nprint("a")\nprint(6 * 7)\n```\n\nprints\n\n```output\na\n42\n```\n'
    assert _check(tmp_path, page) == []


def test_a_changed_output_fails_with_a_diff(tmp_path: Path) -> None:
    page = "# Page\n\n```python\nprint(6 * 7)\n```\n\n```output\n41\n```\n"
    problems = _check(tmp_path, page)
    assert len(problems) == 1
    assert "page.md:7: the output block differs from what the block at line 4 prints" in problems[0]
    assert "-41\n+42" in problems[0]


def test_a_deliberately_wrong_real_page_fails(tmp_path: Path) -> None:
    """Change one line of a real page's output block: the checker must notice."""
    original = (ROOT / "docs" / "tools.md").read_text()
    shown = "- Argument 'count': expected an integer, got 'seven'."
    assert shown in original, "docs/tools.md no longer shows the output this test alters"
    # The page as it is passes (test_page_blocks_run_and_print_what_the_page_shows); with
    # the one line changed, that line is the one problem found.
    wrong = original.replace(shown, "- Argument 'count': expected a number, got 'seven'.")
    problems = _check(tmp_path, wrong)
    assert len(problems) == 1
    assert "+- Argument 'count': expected an integer, got 'seven'." in problems[0]


def test_output_is_compared_without_trailing_spaces_and_blank_lines(tmp_path: Path) -> None:
    page = '```python\nprint("a   ")\nprint()\n```\n\n```output\na\n```\n'
    assert _check(tmp_path, page) == []


def test_blocks_of_a_page_share_one_namespace_in_order(tmp_path: Path) -> None:
    page = (
        "```python\nitems = [1, 2]\n```\n\nThen:\n\n"
        "```py\nitems.append(3)\nprint(items)\n```\n\n```output\n[1, 2, 3]\n```\n"
    )
    assert _check(tmp_path, page) == []


def test_a_skipped_block_is_not_run(tmp_path: Path) -> None:
    page = '```python {test="skip"}\nraise RuntimeError("needs a server")\n```\n'
    assert _check(tmp_path, page) == []


def test_a_raising_block_fails_with_the_pages_line_number(tmp_path: Path) -> None:
    page = (
        '# Page\n\n```python\nx = 1\nraise ValueError("broken example")\n```\n\n'
        "```python\nprint(2)\n```\n"
    )
    problems = _check(tmp_path, page)
    assert len(problems) == 1
    assert "page.md:4: the block raised" in problems[0]
    assert "line 5" in problems[0]
    assert "ValueError: broken example" in problems[0]


def test_an_output_block_after_a_skipped_block_is_an_error(tmp_path: Path) -> None:
    page = '```python {test="skip"}\nprint(1)\n```\n\n```output\n1\n```\n'
    problems = _check(tmp_path, page)
    assert len(problems) == 1
    assert "page.md:5: an output block must directly follow a Python block that runs" in problems[0]


def test_an_output_block_after_another_block_is_an_error(tmp_path: Path) -> None:
    page = "```python\nprint(1)\n```\n\n```yaml\na: 1\n```\n\n```output\n1\n```\n"
    problems = _check(tmp_path, page)
    assert len(problems) == 1
    assert "page.md:9: an output block must directly follow" in problems[0]


def test_an_unknown_test_mark_is_an_error(tmp_path: Path) -> None:
    problems = _check(tmp_path, '```python {test="skipp"}\nprint(1)\n```\n')
    assert problems == [
        f"{tmp_path / 'page.md'}:1: unknown test mode 'skipp'; "
        'the marks are {test="skip"} and {test="slow"}'
    ]


def test_a_slow_block_runs_only_in_the_slow_run(tmp_path: Path) -> None:
    page_file = tmp_path / "page.md"
    page_file.write_text(
        '```python\nvalue = 1\n```\n\n```python {test="slow"}\nvalue = 2\n```\n\n'
        "```python\nprint(value)\n```\n\n```output\n2\n```\n"
    )
    (tmp_path / "work").mkdir()
    page = parse_page(page_file)
    assert check_page(page, tmp_path / "work", slow=True) == []
    fast = check_page(page, tmp_path / "work")
    assert len(fast) == 1 and "-2\n+1" in fast[0]


def test_the_readme_and_the_tutorial_run_their_agent_on_the_bundled_model() -> None:
    assert ROOT / "README.md" in SLOW_DOCUMENTS
    assert ROOT / "docs" / "tutorial.md" in SLOW_DOCUMENTS


def test_blocks_in_list_items_and_longer_fences_are_read(tmp_path: Path) -> None:
    page = (
        "1. First:\n\n"
        "    ```python\n    value = 'in a list'\n    print(value)\n    ```\n\n"
        "    ```output\n    in a list\n    ```\n\n"
        "````markdown\n```python\n"
        'raise RuntimeError("inside a markdown example: not run")\n```\n````\n'
    )
    blocks = parse_page(tmp_path / "page.md", page).blocks
    assert [block.language for block in blocks] == ["python", "output", "markdown"]
    assert blocks[0].code == "value = 'in a list'\nprint(value)\n"
    assert _check(tmp_path, page) == []


def test_top_level_await_runs(tmp_path: Path) -> None:
    page = (
        "```python\nimport asyncio\n\nawait asyncio.sleep(0)\nprint('awaited')\n```\n\n"
        "```output\nawaited\n```\n"
    )
    assert _check(tmp_path, page) == []


def test_blocks_run_in_an_empty_working_directory(tmp_path: Path) -> None:
    page = "```python\nimport os\nprint(os.listdir('.'))\n```\n\n```output\n[]\n```\n"
    assert _check(tmp_path, page) == []


def test_documents_cover_the_readmes_and_every_docs_page() -> None:
    assert ROOT / "README.md" in DOCUMENTS
    assert ROOT / "docs" / "index.md" in DOCUMENTS
    assert ROOT / "plugins" / "gent-xml" / "README.md" in DOCUMENTS

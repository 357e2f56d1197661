"""Every Python block of the README, the docs and the plugin READMEs runs, and prints what the
page shows (see ``doc_blocks.py`` for the conventions); and the checker itself catches a page
that is wrong.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.docs.doc_blocks import BlockServer, check_page, page_imports, parse_page

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


@pytest.fixture(scope="module")
def server() -> Iterator[BlockServer | None]:
    """One block runner for the module's fast pages (on each xdist worker), which imports
    gent, the plugins and what the pages import once and forks each page's process from
    there; ``None`` where there is no ``os.fork``: each page starts a new Python."""
    if not BlockServer.available():
        yield None
        return
    runner = BlockServer(page_imports(parse_page(d) for d in DOCUMENTS))
    yield runner
    runner.close()


@pytest.mark.parametrize("document", DOCUMENTS, ids=[str(d.relative_to(ROOT)) for d in DOCUMENTS])
def test_page_blocks_run_and_print_what_the_page_shows(
    document: Path, tmp_path: Path, server: BlockServer | None
) -> None:
    _check_document(document, tmp_path, slow=False, server=server)


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.parametrize(
    "document", SLOW_DOCUMENTS, ids=[str(d.relative_to(ROOT)) for d in SLOW_DOCUMENTS]
)
def test_page_blocks_run_on_the_bundled_model(document: Path, tmp_path: Path) -> None:
    _check_document(document, tmp_path, slow=True)


def _check_document(
    document: Path, tmp_path: Path, *, slow: bool, server: BlockServer | None = None
) -> None:
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
    problems = check_page(page, tmp_path, slow=slow, server=server)
    assert not problems, "\n\n".join(problems)


# --------------------------------------------------------------------------- the checker


def _check(tmp_path: Path, text: str, server: BlockServer | None) -> list[str]:
    tmp_path.mkdir(exist_ok=True)
    page_file = tmp_path / "page.md"
    page_file.write_text(text)
    workdir = tmp_path / "work"
    workdir.mkdir()
    return check_page(parse_page(page_file), workdir, server=server)


@pytest.fixture(params=["forked", "fresh"])
def runner(request: pytest.FixtureRequest, server: BlockServer | None) -> BlockServer | None:
    """The page test's runner (a process forked by the block server), and a new Python per
    page (``None``: the runner where there is no ``os.fork``, and of the slow run)."""
    if request.param == "fresh":
        return None
    if server is None:
        pytest.skip("no os.fork here: every page runs in a new Python")
    return server


def test_a_block_printing_what_the_page_shows_passes(
    tmp_path: Path, server: BlockServer | None
) -> None:
    page = '# Page\n\n```python\nprint("a")\nprint(6 * 7)\n```\n\nprints\n\n```output\na\n42\n```\n'
    assert _check(tmp_path, page, server) == []


def test_a_changed_output_fails_with_a_diff(tmp_path: Path, runner: BlockServer | None) -> None:
    page = "# Page\n\n```python\nprint(6 * 7)\n```\n\n```output\n41\n```\n"
    problems = _check(tmp_path, page, runner)
    assert len(problems) == 1
    assert "page.md:7: the output block differs from what the block at line 4 prints" in problems[0]
    assert "-41\n+42" in problems[0]


def test_a_deliberately_wrong_real_page_fails(tmp_path: Path, server: BlockServer | None) -> None:
    """Change one line of a real page's output block: the checker must notice."""
    original = (ROOT / "docs" / "tools.md").read_text()
    shown = "- Argument 'count': expected an integer, got 'seven'."
    assert shown in original, "docs/tools.md no longer shows the output this test alters"
    # The page as it is passes (test_page_blocks_run_and_print_what_the_page_shows); with
    # the one line changed, that line is the one problem found.
    wrong = original.replace(shown, "- Argument 'count': expected a number, got 'seven'.")
    problems = _check(tmp_path, wrong, server)
    assert len(problems) == 1
    assert "+- Argument 'count': expected an integer, got 'seven'." in problems[0]


def test_output_is_compared_without_trailing_spaces_and_blank_lines(
    tmp_path: Path, server: BlockServer | None
) -> None:
    page = '```python\nprint("a   ")\nprint()\n```\n\n```output\na\n```\n'
    assert _check(tmp_path, page, server) == []


def test_blocks_of_a_page_share_one_namespace_in_order(
    tmp_path: Path, server: BlockServer | None
) -> None:
    page = (
        "```python\nitems = [1, 2]\n```\n\nThen:\n\n"
        "```py\nitems.append(3)\nprint(items)\n```\n\n```output\n[1, 2, 3]\n```\n"
    )
    assert _check(tmp_path, page, server) == []


def test_a_skipped_block_is_not_run(tmp_path: Path, server: BlockServer | None) -> None:
    page = '```python {test="skip"}\nraise RuntimeError("needs a server")\n```\n'
    assert _check(tmp_path, page, server) == []


def test_a_raising_block_fails_with_the_pages_line_number(
    tmp_path: Path, runner: BlockServer | None
) -> None:
    page = (
        '# Page\n\n```python\nx = 1\nraise ValueError("broken example")\n```\n\n'
        "```python\nprint(2)\n```\n"
    )
    problems = _check(tmp_path, page, runner)
    assert len(problems) == 1
    assert "page.md:4: the block raised" in problems[0]
    assert "line 5" in problems[0]
    assert "ValueError: broken example" in problems[0]


def test_an_output_block_after_a_skipped_block_is_an_error(
    tmp_path: Path, server: BlockServer | None
) -> None:
    page = '```python {test="skip"}\nprint(1)\n```\n\n```output\n1\n```\n'
    problems = _check(tmp_path, page, server)
    assert len(problems) == 1
    assert "page.md:5: an output block must directly follow a Python block that runs" in problems[0]


def test_an_output_block_after_another_block_is_an_error(
    tmp_path: Path, server: BlockServer | None
) -> None:
    page = "```python\nprint(1)\n```\n\n```yaml\na: 1\n```\n\n```output\n1\n```\n"
    problems = _check(tmp_path, page, server)
    assert len(problems) == 1
    assert "page.md:9: an output block must directly follow" in problems[0]


def test_an_unknown_test_mark_is_an_error(tmp_path: Path, server: BlockServer | None) -> None:
    problems = _check(tmp_path, '```python {test="skipp"}\nprint(1)\n```\n', server)
    assert problems == [
        f"{tmp_path / 'page.md'}:1: unknown test mode 'skipp'; "
        'the marks are {test="skip"} and {test="slow"}'
    ]


def test_a_slow_block_runs_only_in_the_slow_run(tmp_path: Path, server: BlockServer | None) -> None:
    page_file = tmp_path / "page.md"
    page_file.write_text(
        '```python\nvalue = 1\n```\n\n```python {test="slow"}\nvalue = 2\n```\n\n'
        "```python\nprint(value)\n```\n\n```output\n2\n```\n"
    )
    (tmp_path / "work").mkdir()
    page = parse_page(page_file)
    assert check_page(page, tmp_path / "work", slow=True) == []
    fast = check_page(page, tmp_path / "work", server=server)
    assert len(fast) == 1 and "-2\n+1" in fast[0]


def test_the_readme_and_the_tutorial_run_their_agent_on_the_bundled_model() -> None:
    assert ROOT / "README.md" in SLOW_DOCUMENTS
    assert ROOT / "docs" / "tutorial.md" in SLOW_DOCUMENTS


def test_blocks_in_list_items_and_longer_fences_are_read(
    tmp_path: Path, server: BlockServer | None
) -> None:
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
    assert _check(tmp_path, page, server) == []


def test_top_level_await_runs(tmp_path: Path, server: BlockServer | None) -> None:
    page = (
        "```python\nimport asyncio\n\nawait asyncio.sleep(0)\nprint('awaited')\n```\n\n"
        "```output\nawaited\n```\n"
    )
    assert _check(tmp_path, page, server) == []


def test_blocks_run_in_an_empty_working_directory(
    tmp_path: Path, server: BlockServer | None
) -> None:
    page = "```python\nimport os\nprint(os.listdir('.'))\n```\n\n```output\n[]\n```\n"
    assert _check(tmp_path, page, server) == []


@pytest.fixture
def forking(server: BlockServer | None) -> BlockServer:
    """The module's block server, for the tests of forked pages (none without ``os.fork``)."""
    if server is None:
        pytest.skip("no os.fork here: every page runs in a new Python")
    return server


def test_a_served_page_leaves_nothing_behind_for_the_next(
    tmp_path: Path, forking: BlockServer
) -> None:
    """A page's module, environment, working directory and changes to a loaded module end
    with its process: the next page, forked from the same server, sees none of them."""
    first = (
        "```python\nimport json\nimport os\nfrom pathlib import Path\n\n"
        "Path('page_module.py').write_text('VALUE = 1')\nimport page_module\n"
        "os.environ['GENT_DOC_PAGE_MARK'] = 'first'\njson.page_mark = 'first'\n"
        "os.mkdir('elsewhere')\nos.chdir('elsewhere')\n"
        "print(page_module.VALUE, json.page_mark)\n```\n\n```output\n1 first\n```\n"
    )
    second = (
        "```python\nimport json\nimport os\nimport sys\n\n"
        "print('page_module' in sys.modules, os.environ.get('GENT_DOC_PAGE_MARK'))\n"
        "print(hasattr(json, 'page_mark'), os.listdir('.'))\n```\n\n"
        "```output\nFalse None\nFalse []\n```\n"
    )
    assert _check(tmp_path / "one", first, forking) == []
    assert _check(tmp_path / "two", second, forking) == []


def test_a_served_page_starts_with_gent_imported(tmp_path: Path, forking: BlockServer) -> None:
    """The point of the server: gent (which the pages import) is imported, and the plugins'
    components (which discovery imports) too, before the page's first line runs."""
    page = (
        "```python\nimport sys\n\n"
        "print('gent_core' in sys.modules, 'gent_xml.format' in sys.modules)\n```\n\n"
        "```output\nTrue True\n```\n"
    )
    assert _check(tmp_path, page, forking) == []


def test_a_page_that_ends_its_process_is_reported_and_the_next_page_runs(
    tmp_path: Path, forking: BlockServer
) -> None:
    crash = (
        "```python\nimport os\nimport sys\n\nprint('dying', file=sys.stderr)\nos._exit(3)\n```\n"
    )
    problems = _check(tmp_path / "one", crash, forking)
    assert len(problems) == 1
    assert "the block runner crashed (exit 3)" in problems[0]
    assert "dying" in problems[0]
    page = "```python\nprint(6 * 7)\n```\n\n```output\n42\n```\n"
    assert _check(tmp_path / "two", page, forking) == []


def test_a_served_page_that_outlasts_its_timeout_is_ended(
    tmp_path: Path, forking: BlockServer
) -> None:
    blocks: list[dict[str, object]] = [{"code": "import time\ntime.sleep(600)\n", "line": 2}]
    results, stderr = forking.run(Path("page.md"), blocks, tmp_path, timeout=0.5)
    assert results == []
    assert "the block runner crashed (exit -9)" in stderr
    assert "killed: the page took over 0.5 s" in stderr


def test_documents_cover_the_readmes_and_every_docs_page() -> None:
    assert ROOT / "README.md" in DOCUMENTS
    assert ROOT / "docs" / "index.md" in DOCUMENTS
    assert ROOT / "plugins" / "gent-xml" / "README.md" in DOCUMENTS

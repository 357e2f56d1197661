"""Every shell block of the README and the tutorial runs, in one bash session per page, and
prints what the page shows (see ``shell_blocks.py`` for the conventions); the one that cannot,
``python3 dev.py test``, is what ``.ci/run`` runs; and the session itself is checked: it stops at
the first failure, with the page's line, and leaves nothing running.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

from tests.docs.doc_blocks import Page, parse_page
from tests.docs.shell_blocks import (
    check_shell_page,
    checkout_view,
    output_matches,
    session_environment,
    shell_units,
)

ROOT = Path(__file__).resolve().parents[2]
SHELL_PAGES = [ROOT / "README.md", ROOT / "docs" / "tutorial.md"]
"""The pages a newcomer follows command by command: every shell block of theirs runs."""

CI_SCRIPT = ROOT / ".ci" / "run"
CI_PREAMBLE = ("set ", "cd ", "python3 --version")
"""What ``.ci/run`` may do before the command it runs (options, its folder, the version)."""


def _page(document: Path) -> Page:
    return parse_page(document.relative_to(ROOT), document.read_text(encoding="utf-8"))


def _uses_openai(page: Page) -> bool:
    return any(block.attributes.get("test") == "openai" for block in page.blocks)


def _has_slow_shell_blocks(document: Path) -> bool:
    return any(block.is_shell and block.slow for block in _page(document).blocks)


SLOW_SHELL_PAGES = [document for document in SHELL_PAGES if _has_slow_shell_blocks(document)]
_IDS = [str(d.relative_to(ROOT)) for d in SHELL_PAGES]
_SLOW_IDS = [str(d.relative_to(ROOT)) for d in SLOW_SHELL_PAGES]


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _link_bundled_model(cache: Path) -> None:
    """Put the bundled model's file (``gent_llamacpp.model_file()``, assembled once into the
    user's cache) into the session's model cache as a link: the blocks find it where they
    look, and no second copy of 253 MB is written."""
    from gent_llamacpp import model_file

    source = model_file()
    folder = cache / "gent" / "models"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / source.name).symlink_to(source)


def _assert_dev_py_installs_nothing() -> None:
    """``python3 dev.py demo`` on the page must find its packages installed (as ``dev.py
    test`` leaves them): were the environment made for other ``pyproject.toml`` files, it would
    reinstall them into the environment the tests run in."""
    spec = importlib.util.spec_from_file_location("gent_dev", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    installed = dev._installed_profiles(Path(sys.prefix) / ".gent-dev-stamp")
    assert dev._fingerprint() in (installed.get("demo"), installed.get("full")), (
        f"the environment {sys.prefix} was not set up by dev.py for this checkout's "
        "pyproject.toml files (its .gent-dev-stamp): run 'python3 dev.py setup' first"
    )


def _run_page(
    page: Page, tmp_path: Path, *, slow: bool, extra: dict[str, str] | None = None
) -> list[str]:
    view = checkout_view(ROOT, tmp_path / "checkout", Path(sys.prefix))
    environment = session_environment(tmp_path / "home", extra)
    if slow:
        _link_bundled_model(Path(environment["XDG_CACHE_HOME"]))
    scratch = tmp_path / "session"
    scratch.mkdir()
    return check_shell_page(page, view, environment, scratch, slow=slow)


@pytest.mark.parametrize("document", SHELL_PAGES, ids=_IDS)
def test_page_shell_blocks_run_and_print_what_the_page_shows(
    document: Path, tmp_path: Path
) -> None:
    problems = _run_page(_page(document), tmp_path, slow=False)
    assert not problems, "\n\n".join(problems)


@pytest.mark.slow
@pytest.mark.model
@pytest.mark.parametrize("document", SLOW_SHELL_PAGES, ids=_SLOW_IDS)
def test_page_shell_blocks_run_on_the_bundled_model(
    document: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    page = _page(document)
    if any("dev.py" in unit.code for unit in shell_units(page, slow=True)):
        _assert_dev_py_installs_nothing()
    extra = {"PORT": str(_free_port())}  # the port a block's own server listens on
    if _uses_openai(page):
        server = request.getfixturevalue("instruct_server")
        extra |= {"OPENAI_BASE_URL": server.url, "OPENAI_MODEL": server.model}
    problems = _run_page(page, tmp_path, slow=True, extra=extra)
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize("document", SHELL_PAGES, ids=_IDS)
def test_every_shell_block_runs_or_is_the_ci_command(document: Path) -> None:
    page = _page(document)
    assert not page.problems
    started = [unit.line for unit in shell_units(page, slow=True)]
    shell_blocks = [block for block in page.blocks if block.is_shell]
    assert shell_blocks, f"{document.name} has no shell block"
    for block in shell_blocks:
        end = block.line + len(block.code.splitlines())
        runs = any(block.line <= line < end for line in started)
        assert runs or block.attributes.get("test") == "ci", (
            f"{page.path}:{block.line}: this shell block is not run"
        )


def _commands(script: str) -> list[str]:
    """The command lines of a shell script (comments, blank lines and ``#!`` left out)."""
    return [
        line.split("#", 1)[0].strip()
        for line in script.splitlines()
        if line.split("#", 1)[0].strip()
    ]


def test_the_ci_mark_is_what_ci_runs() -> None:
    ci_blocks = [
        (document, block)
        for document in SHELL_PAGES
        for block in _page(document).blocks
        if block.attributes.get("test") == "ci"
    ]
    assert ci_blocks, "no block shows the command CI runs"
    commands = _commands(CI_SCRIPT.read_text(encoding="utf-8"))
    for document, block in ci_blocks:
        shown = _commands(block.code)
        assert commands[-len(shown) :] == shown, (
            f"{document.name}:{block.line}: {shown} is marked as what CI runs, but .ci/run "
            f"runs {commands}"
        )
        before = commands[: -len(shown)]
        assert all(command.startswith(CI_PREAMBLE) for command in before), (
            f".ci/run runs more than {document.name}:{block.line} shows: {before}"
        )


# --------------------------------------------------------------------------- the session


def _check(tmp_path: Path, text: str, *, slow: bool = False) -> list[str]:
    page_file = tmp_path / "page.md"
    page_file.write_text(text)
    work = tmp_path / "work"
    work.mkdir()
    scratch = tmp_path / "session"
    scratch.mkdir()
    environment = session_environment(tmp_path / "home")
    return check_shell_page(parse_page(page_file), work, environment, scratch, slow=slow)


def test_blocks_of_a_page_share_one_session(tmp_path: Path) -> None:
    page = (
        "```bash\nexport GREETING=hello\ncd sub 2>/dev/null || mkdir sub && cd sub\n```\n\n"
        "```console\n$ echo $GREETING from $(basename $PWD)\nhello from sub\n```\n"
    )
    assert _check(tmp_path, page) == []


def test_a_failing_command_stops_the_session_with_the_pages_line(tmp_path: Path) -> None:
    page = (
        "# Page\n\n```bash\necho before\nls no-such-file\necho after\n```\n\n"
        "```sh\ntouch ran-later\n```\n"
    )
    problems = _check(tmp_path, page)
    assert len(problems) == 1
    assert "page.md:4: the command failed (exit status 2)" in problems[0]
    assert "before\n" in problems[0] and "no-such-file" in problems[0]
    assert "after" not in problems[0]
    assert not (tmp_path / "work" / "ran-later").exists()


def test_a_failing_pipe_fails(tmp_path: Path) -> None:
    problems = _check(tmp_path, "```bash\nfalse | cat\n```\n")
    assert len(problems) == 1 and "exit status 1" in problems[0]


def test_a_console_block_checks_each_commands_output(tmp_path: Path) -> None:
    page = "```console\n$ echo one\none\n$ printf 'a\\nb\\n'\na\nc\n```\n"
    problems = _check(tmp_path, page)
    assert len(problems) == 1
    assert "page.md:4: the output differs from what the command prints" in problems[0]
    assert "-c\n+b" in problems[0]


def test_a_console_command_may_continue_on_the_next_line(tmp_path: Path) -> None:
    page = "```console\n$ echo one \\\n  two\none two\n```\n"
    assert _check(tmp_path, page) == []


def test_an_ellipsis_line_stands_for_any_lines() -> None:
    assert output_matches(("a", "...", "d"), "a\nb\nc\nd\n")
    assert output_matches(("a", "...", "b"), "a\nb\n")  # none included
    assert output_matches(("a", "..."), "a\nb\nc\n")
    assert output_matches(("...", "c"), "a\nb\nc\n")
    assert output_matches(("a  ", "b", ""), "a\nb  \n\n")
    assert not output_matches(("a", "...", "d"), "a\nb\nc\n")
    assert not output_matches(("a", "b"), "a\nx\nb\n")
    assert not output_matches(("a",), "a\nb\n")


def test_a_console_block_must_start_with_a_command(tmp_path: Path) -> None:
    problems = _check(tmp_path, "```console\nhello\n$ echo hello\n```\n")
    assert problems == [
        f"{tmp_path / 'page.md'}:2: a console block starts with a command line "
        "('$ command'), then shows its output"
    ]


def test_the_session_leaves_no_process_behind(tmp_path: Path) -> None:
    page = "```bash\nsleep 600 &\necho $! > server.pid\n```\n"
    assert _check(tmp_path, page) == []
    pid = int((tmp_path / "work" / "server.pid").read_text())
    stat = Path(f"/proc/{pid}/stat")
    gone = not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"
    if not gone:
        os.kill(pid, 9)
    assert gone, "the background process of the block was left running"


def test_a_slow_block_runs_only_in_the_slow_run(tmp_path: Path) -> None:
    page = '```bash {test="slow"}\ntouch slow-ran\n```\n\n```bash\ntouch fast-ran\n```\n'
    assert _check(tmp_path, page) == []
    assert (tmp_path / "work" / "fast-ran").exists()
    assert not (tmp_path / "work" / "slow-ran").exists()


def test_a_ci_block_is_never_run(tmp_path: Path) -> None:
    page = '```bash {test="ci"}\ntouch ci-ran\n```\n'
    assert _check(tmp_path, page, slow=True) == []
    assert not (tmp_path / "work" / "ci-ran").exists()


def test_an_unknown_or_skip_mark_on_a_shell_block_is_an_error(tmp_path: Path) -> None:
    problems = _check(tmp_path, '```bash {test="skip"}\ntrue\n```\n')
    assert problems == [
        f"{tmp_path / 'page.md'}:1: unknown test mode 'skip' for a shell block; "
        'the marks are {test="slow"}, {test="openai"} and {test="ci"}'
    ]


def test_the_session_keeps_gent_and_openai_settings_of_the_caller_out(tmp_path: Path) -> None:
    base = {"PATH": "/usr/bin", "GENT_PLUGINS": "xml", "OPENAI_API_KEY": "sk-real", "HOME": "/h"}
    environment = session_environment(tmp_path, {"PORT": "1234"}, base=base)
    assert "GENT_PLUGINS" not in environment and "OPENAI_API_KEY" not in environment
    assert environment["GENT_HOME"] == str(tmp_path / "gent-home")
    assert environment["XDG_CACHE_HOME"] == str(tmp_path / "cache")
    assert environment["PATH"].split(os.pathsep) == [str(Path(sys.executable).parent), "/usr/bin"]
    assert environment["PIP_NO_INDEX"] == "1"
    assert environment["PORT"] == "1234" and environment["HOME"] == "/h"


def test_the_checkout_view_links_the_checkout_and_keeps_writes_out(tmp_path: Path) -> None:
    view = checkout_view(ROOT, tmp_path / "view", Path(sys.prefix))
    assert (view / "examples" / "calculator.yaml").read_bytes() == (
        ROOT / "examples" / "calculator.yaml"
    ).read_bytes()
    assert (view / ".venv").resolve() == Path(sys.prefix).resolve()
    (view / "written-by-a-block").write_text("x")
    assert not (ROOT / "written-by-a-block").exists()


def test_a_deliberately_wrong_listing_in_the_readme_fails(tmp_path: Path) -> None:
    """Change one row of the README's ``gent plugins`` listing: the checker must notice."""
    original = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = "basic     gent-tools-basic  0.1.0    loaded  tools: calculator, current_time\n"
    assert shown in original, "README.md no longer shows the row this test alters"
    problems = _check(tmp_path, original.replace(shown, shown.replace(", current_time", "")))
    assert len(problems) == 1
    assert "the output differs from what the command prints" in problems[0]
    assert (
        "+basic     gent-tools-basic  0.1.0    loaded  tools: calculator, current_time"
        in (problems[0])
    )


def test_a_block_of_comments_only_runs(tmp_path: Path) -> None:
    assert (
        _check(tmp_path, "```bash\n# nothing to run\n```\n\n```console\n$ echo ok\nok\n```\n") == []
    )


def test_a_syntax_error_is_placed_at_its_block(tmp_path: Path) -> None:
    problems = _check(tmp_path, "```bash\necho fine\n```\n\n```bash\nif then\n```\n")
    assert len(problems) == 1
    assert "page.md:6: the command failed (exit status 2)" in problems[0]
    assert "syntax error" in problems[0]

"""The corpus of model outputs (``tests/corpus``): add real outputs from run transcripts, and
count the unusable ones, with this gent and with an earlier one.

    python tools/corpus.py add DIR --model gemma-3-270m      # outputs of `gent eval` transcripts
    python tools/corpus.py add-bfcl FILE... --model NAME     # outputs of `gent eval bfcl:` results
    python tools/corpus.py table --before REV                 # unusable outputs, before and now

``add`` reads every run transcript (``*.jsonl``) under DIR, takes each step's output as the
agent recorded it (with its finish reason), and writes it as a case of the corpus in the folder
of its format and tool chain, with what this gent reads in it as the expected reading. Outputs
already in the folder (the same text) are skipped. Review the cases it writes: the expected
file records what the output *should* give.

``table`` reads every case with the formats and chains of this worktree, and with those of
git revision REV (exported to a temporary folder and run in a child process, so that nothing of
this gent is imported there), and prints per format and model how many outputs were unusable:
no action and no answer the agent could use (see ``tests/corpus/reading.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
SUITE_TOOLS = {"basic-tools": "basic", "files-tools": "files"}


def _reading_module() -> ModuleType:
    """``tests/corpus/reading.py``, imported by path (the gent it reads with comes from
    ``sys.path``, which may hold an earlier gent)."""
    spec = importlib.util.spec_from_file_location("corpus_reading", CORPUS / "reading.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _parts(format_name: str, chain_name: str, tools: str | None) -> tuple[Any, Any]:
    from gent_json import JSONToolChain
    from gent_markdown import MarkdownFormat
    from gent_pythonic import PythonicToolChain
    from gent_xml import XMLFormat
    from gent_yaml import YAMLToolChain

    formats: dict[str, Any] = {"xml": XMLFormat, "markdown": MarkdownFormat}
    chains: dict[str, Any] = {
        "json": JSONToolChain,
        "yaml": YAMLToolChain,
        "pythonic": PythonicToolChain,
    }
    known = _reading_module().chain_tools(tools)
    return formats[format_name](), chains[chain_name](known)


def cases() -> Iterator[tuple[Path, str, dict[str, Any]]]:
    """Every case: its text file, its text and its expected reading."""
    for path in sorted(CORPUS.glob("*-*/*.txt")):
        expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
        yield path, path.read_text(encoding="utf-8"), expected


def count() -> dict[str, str]:
    """The reading of every case with the gent on ``sys.path``: ``{case: reading}``."""
    reading = _reading_module()
    found: dict[str, str] = {}
    for path, text, expected in cases():
        format_name, chain_name = path.parent.name.split("-")
        fmt, chain = _parts(format_name, chain_name, expected.get("tools"))
        got = reading.read_output(text, fmt, chain, expected.get("finish_reason"))
        found[str(path.relative_to(CORPUS))] = got["reading"]
    return found


# ---------------------------------------------------------------------- add


def _name(config: dict[str, Any] | None, key: str, default: str) -> str:
    value = (config or {}).get(key) or default
    if isinstance(value, dict):
        value = value.get("name", default)
    return str(value).split(":")[-1]


def _runs(folder: Path) -> Iterator[tuple[Path, dict[str, Any], list[dict[str, Any]]]]:
    for path in sorted(folder.rglob("*.jsonl")):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        head = next((line for line in lines if line.get("type") == "run"), None)
        if head is not None:
            yield path, head, [line for line in lines if line.get("type") == "step"]


def _expected(text: str, fmt: str, chain: str, meta: dict[str, Any]) -> dict[str, Any]:
    reading = _reading_module()
    got = reading.read_output(text, *_parts(fmt, chain, meta.get("tools")), meta["finish_reason"])
    expected: dict[str, Any] = {"kind": "collected", **meta}
    expected["sections"] = got.get("sections", [])
    if got.get("truncated"):
        expected["truncated"] = True
    for key in ("calls", "answer"):
        if key in got:
            expected[key] = got[key]
    error = got.get("error")
    if error is not None:
        expected["error"] = {"type": type(error).__name__, "message": ""}
    expected["reading"] = got["reading"]
    return expected


def _write_case(fmt: str, chain: str, text: str, meta: dict[str, Any]) -> bool:
    """Write ``text`` as a case of folder ``<fmt>-<chain>``, unless it is empty or there."""
    target = CORPUS / f"{fmt}-{chain}"
    target.mkdir(exist_ok=True)
    if not text.strip() or any(p.read_text(encoding="utf-8") == text for p in target.glob("*.txt")):
        return False
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    case = target / f"{meta['model']}-{digest}"
    case.with_suffix(".txt").write_text(text, encoding="utf-8")
    expected = _expected(text, fmt, chain, meta)
    case.with_suffix(".expected.json").write_text(
        json.dumps(expected, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return True


def add(folder: Path, model: str) -> int:
    """Write the outputs of the transcripts under ``folder`` as corpus cases; the number
    written."""
    written = 0
    for path, head, steps in _runs(folder):
        config = head.get("config") or {}
        fmt, chain = _name(config, "format", "xml"), _name(config, "toolchain", "json")
        suite = next((s for s in SUITE_TOOLS if s in str(path)), None)
        for step in steps:
            meta = {
                "source": f"{model}, gent eval {suite or '?'}: {head.get('task', '')[:80]}",
                "model": model,
                "tools": SUITE_TOOLS.get(suite or ""),
                "finish_reason": (step.get("model") or {}).get("finish_reason"),
            }
            written += _write_case(fmt, chain, step.get("output") or "", meta)
    return written


def add_bfcl(files: list[Path], model: str) -> int:
    """Write the outputs of ``gent eval bfcl:`` raw results (JSONL, one task a line, the
    default xml format, the chain in ``config``) as corpus cases; the number written."""
    written = 0
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            meta = {
                "source": f"{model}, gent eval bfcl:{row['category']} ({row['id']}), {path.name}",
                "model": model,
                "tools": "none",
                "finish_reason": row.get("finish_reason"),
            }
            written += _write_case("xml", row["config"], row.get("output") or "", meta)
    return written


# ---------------------------------------------------------------------- table


def _count_at(revision: str) -> dict[str, str]:
    """The readings with the gent of git revision ``revision`` (in a child process)."""
    with tempfile.TemporaryDirectory(prefix="gent-corpus-") as folder:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "gent_core", "plugins"],
            check=True,
            capture_output=True,
        ).stdout
        archive_path = Path(folder) / "tree.tar"
        archive_path.write_bytes(archive)
        with tarfile.open(archive_path) as tar:
            tar.extractall(folder, filter="data")
        paths = [folder, *sorted(str(p) for p in (Path(folder) / "plugins").iterdir())]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        out = subprocess.run(
            [sys.executable, __file__, "count"], check=True, capture_output=True, env=env, text=True
        ).stdout
    result: dict[str, str] = json.loads(out)
    return result


def table(before: str | None) -> str:
    """The table of unusable outputs per format and model (collected outputs, then all)."""
    now = count()
    then = _count_at(before) if before else None
    rows: dict[tuple[str, str], list[int]] = {}
    for path, _, expected in cases():
        key = str(path.relative_to(CORPUS))
        model = expected.get("model", "hand-written")
        for group in ((path.parent.name.split("-")[0], model), ("all", model)):
            row = rows.setdefault(group, [0, 0, 0])
            row[0] += 1
            row[1] += then is not None and then[key] == "unusable"
            row[2] += now[key] == "unusable"
    lines = [
        "| format | outputs of | outputs | unusable before | unusable now |",
        "| --- | --- | --- | --- | --- |",
    ]
    for (fmt, model), (total, old, new) in sorted(rows.items()):
        old_text = f"{old} ({old / total:.0%})" if then is not None else "-"
        lines.append(f"| {fmt} | {model} | {total} | {old_text} | {new} ({new / total:.0%}) |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module documentation)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    adding = commands.add_parser("add", help="add the outputs of run transcripts under DIR")
    adding.add_argument("folder", type=Path)
    adding.add_argument("--model", required=True, help="a short name of the model")
    bfcl = commands.add_parser("add-bfcl", help="add the outputs of gent eval bfcl: results")
    bfcl.add_argument("files", type=Path, nargs="+")
    bfcl.add_argument("--model", required=True, help="a short name of the model")
    tabling = commands.add_parser("table", help="print the unusable outputs per format")
    tabling.add_argument("--before", help="a git revision to compare with")
    commands.add_parser("count", help="print every case's reading as JSON (for table)")
    args = parser.parse_args(argv)
    if args.command == "add":
        print(f"{add(args.folder, args.model)} outputs added")
    elif args.command == "add-bfcl":
        print(f"{add_bfcl(args.files, args.model)} outputs added")
    elif args.command == "table":
        print(table(args.before))
    else:
        print(json.dumps(count()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

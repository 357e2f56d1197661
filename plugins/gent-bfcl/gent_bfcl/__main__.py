"""``python -m gent_bfcl``: run BFCL's prompt-mode baseline on a gent model.

::

    python -m gent_bfcl simple_python,multiple --every 10 --model llamacpp -o seed=1

prints one line per task (id, verdict, failure kind, tokens, seconds) and, at the end, the
counts per category as JSON; ``--jsonl FILE`` writes every result in full. Until
``gent eval bfcl:...`` exists, this is the way to run the baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from gent_bfcl.categories import parse_categories
from gent_bfcl.data import load_tasks
from gent_bfcl.runner import BFCL_TEMPERATURE, TaskResult, run_baseline, summarize
from gent_core import GentError, Registry, build_plugin_manager


def _option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(raw)
    except json.JSONDecodeError:
        return key, raw


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gent_bfcl", description="BFCL's prompt-mode baseline on a gent model."
    )
    parser.add_argument("categories", help="comma-separated BFCL categories")
    parser.add_argument("--data", type=Path, help="a folder of BFCL files (default: bfcl-eval)")
    parser.add_argument("--every", type=int, help="keep every K-th task of each category")
    parser.add_argument("--limit", type=int, help="then the first N of each category")
    parser.add_argument("--model", default="llamacpp", help="a gent model (default: llamacpp)")
    parser.add_argument(
        "-o", dest="options", type=_option, action="append", default=[], help="KEY=VALUE option"
    )
    parser.add_argument("--max-tokens", type=int, help="tokens per answer (default: the model's)")
    parser.add_argument("--temperature", type=float, default=BFCL_TEMPERATURE)
    parser.add_argument("--jsonl", type=Path, help="write every result to this file")
    return parser


def _line(result: TaskResult) -> str:
    kind = result.verdict.kind
    verdict = "valid" if kind is None else f"invalid {kind.value}"
    return (
        f"{result.task_id}\t{verdict}\t{result.output_tokens} tokens\t{result.seconds:.1f}s\t"
        f"{result.output.strip()[:100]!r}"
    )


async def _run(args: argparse.Namespace, out: IO[str]) -> dict[str, dict[str, Any]]:
    categories = parse_categories(args.categories)
    tasks = load_tasks(categories, args.data, limit=args.limit, every=args.every)
    registry = Registry.from_plugin_manager(build_plugin_manager())
    model = registry.create("model", args.model, **dict(args.options))
    records = args.jsonl.open("w", encoding="utf-8") if args.jsonl else None

    def show(result: TaskResult) -> None:
        print(_line(result), file=out, flush=True)
        if records is not None:
            records.write(json.dumps(result.to_dict()) + "\n")

    try:
        results = await run_baseline(
            model,
            tasks,
            max_tokens=args.max_tokens,
            temperature=args.temperature,
            on_result=show,
        )
    finally:
        if records is not None:
            records.close()
        await model.aclose()
    return summarize(results)


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    """Run the baseline; 0 when it ran, 2 for bad arguments or data (said on stderr)."""
    args = _parser().parse_args(argv)
    stream = out if out is not None else sys.stdout
    try:
        summary = asyncio.run(_run(args, stream))
    except (GentError, ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        hint = getattr(error, "hint", None)
        if hint:
            print(f"hint: {hint}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=2), file=stream)
    return 0


if __name__ == "__main__":
    sys.exit(main())

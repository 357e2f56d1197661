r"""``python -m gent_bfcl``: run gent's agent, or BFCL's prompt-mode baseline, on BFCL tasks.

::

    python -m gent_bfcl gent [CONFIG...] --categories simple_python,multiple --every 8 \\
        --matrix format=xml,markdown --matrix toolchain=json,pythonic --baseline
    python -m gent_bfcl baseline simple_python,multiple --every 10 --model llamacpp -o seed=1

``gent`` runs each configuration (config files, default: gent's built-in agent, times the
``--matrix`` overrides) on the tasks with the task's functions as declared tools and judges
its first step (:mod:`gent_bfcl.agentrun`); ``--baseline`` adds BFCL's own prompt mode on the
first configuration's model in the same run. ``baseline`` runs BFCL's prompt mode alone on a
model named by plugin (the form without a subcommand, ``python -m gent_bfcl CATEGORIES``, is
this one). Both print one line per task and, at the end, the figures per configuration and
category as JSON (accuracy with its 95% Wilson interval, unparsable share, failure kinds,
copy rate, repair rate, tokens and seconds per task); ``--jsonl FILE`` writes every result in
full. ``gent eval bfcl:...`` (:mod:`gent_bfcl.evalsource`) runs the same through gent-eval.
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
from gent_bfcl.data import BFCLTask, load_tasks
from gent_bfcl.runner import BFCL_TEMPERATURE, TaskResult, run_baseline, summarize
from gent_core import GentError, Registry, build_plugin_manager

_COMMANDS = ("gent", "baseline")


def _option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(raw)
    except json.JSONDecodeError:
        return key, raw


def _selection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, help="a folder of BFCL files (default: bfcl-eval)")
    parser.add_argument("--every", type=int, help="keep every K-th task of each category")
    parser.add_argument(
        "--offset", type=int, default=0, help="start from this task of each category (0)"
    )
    parser.add_argument("--limit", type=int, help="then the first N of each category")
    parser.add_argument("--max-tokens", type=int, help="tokens per model call")
    parser.add_argument("--jsonl", type=Path, help="write every result to this file")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gent_bfcl", description="gent's agent and BFCL's prompt mode on BFCL."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    agent = commands.add_parser("gent", help="gent's agent, the task's functions declared")
    agent.add_argument(
        "configs", nargs="*", type=Path, help="agent config files (default: built-in)"
    )
    agent.add_argument("--categories", required=True, help="comma-separated BFCL categories")
    agent.add_argument(
        "--matrix",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="run each config under every value (as gent eval --matrix)",
    )
    agent.add_argument(
        "--baseline", action="store_true", help="also BFCL's prompt mode on the same model"
    )
    agent.add_argument(
        "--baseline-max-tokens",
        type=int,
        default=48,
        help="tokens per answer in BFCL's prompt mode (48: a call fits, the prose it writes "
        "instead is cut short)",
    )
    _selection(agent)
    baseline = commands.add_parser("baseline", help="BFCL's prompt mode on a model")
    baseline.add_argument("categories", help="comma-separated BFCL categories")
    baseline.add_argument("--model", default="llamacpp", help="a gent model (default: llamacpp)")
    baseline.add_argument(
        "-o", dest="options", type=_option, action="append", default=[], help="KEY=VALUE option"
    )
    baseline.add_argument("--temperature", type=float, default=BFCL_TEMPERATURE)
    _selection(baseline)
    return parser


def _line(result: TaskResult) -> str:
    kind = result.verdict.kind
    verdict = "valid" if kind is None else f"invalid {kind.value}"
    extra = f"\tcopied {result.copied_calls}" if result.copied_calls else ""
    if result.repairs:
        extra += f"\trepaired {result.repaired}/{result.repairs}"
    return (
        f"{result.config}\t{result.task_id}\t{verdict}\t{result.output_tokens} tokens\t"
        f"{result.seconds:.1f}s{extra}\t{result.output.strip()[:100]!r}"
    )


def _tasks(args: argparse.Namespace, categories: list[str]) -> list[BFCLTask]:
    if args.offset < 0:
        raise ValueError(f"--offset must be 0 or more, got {args.offset}")
    return load_tasks(categories, args.data, limit=args.limit, every=args.every, offset=args.offset)


class _Recorder:
    def __init__(self, out: IO[str], path: Path | None) -> None:
        self.out = out
        self.file = path.open("w", encoding="utf-8") if path else None
        self.results: list[TaskResult] = []

    def __call__(self, result: TaskResult) -> None:
        self.results.append(result)
        print(_line(result), file=self.out, flush=True)
        if self.file is not None:
            self.file.write(json.dumps(result.to_dict()) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def _configurations(args: argparse.Namespace) -> list[Any]:
    from gent_eval import build_configurations

    from gent_bfcl.agentrun import AgentConfiguration
    from gent_core import default_config, load_config
    from gent_core.config import parse_assignment

    configs = [(str(path), load_config(path)) for path in args.configs] or [
        ("gent", default_config())
    ]
    axes = [parse_assignment(spec) for spec in args.matrix]
    return [
        AgentConfiguration(configuration.label, configuration.loaded)
        for configuration in build_configurations(configs, axes)
    ]


async def _run_gent(args: argparse.Namespace, record: _Recorder) -> None:
    from gent_bfcl.agentrun import run_agent
    from gent_core import build_components

    tasks = _tasks(args, parse_categories(args.categories))
    registry = Registry.from_plugin_manager(build_plugin_manager())
    configurations = _configurations(args)
    for index, configuration in enumerate(configurations):
        model = build_components(configuration.loaded, registry).model
        try:
            if index == 0 and args.baseline:
                await run_baseline(
                    model, tasks, max_tokens=args.baseline_max_tokens, on_result=record
                )
            await run_agent(
                configuration,
                model,
                tasks,
                registry=registry,
                max_tokens=args.max_tokens,
                on_result=record,
            )
        finally:
            await model.aclose()


async def _run_baseline(args: argparse.Namespace, record: _Recorder) -> None:
    tasks = _tasks(args, parse_categories(args.categories))
    registry = Registry.from_plugin_manager(build_plugin_manager())
    model = registry.create("model", args.model, **dict(args.options))
    try:
        await run_baseline(
            model,
            tasks,
            max_tokens=args.max_tokens,
            temperature=args.temperature,
            on_result=record,
        )
    finally:
        await model.aclose()


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    """Run a command; 0 when it ran, 2 for bad arguments, configs or data (said on stderr)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] not in _COMMANDS and not arguments[0].startswith("-"):
        arguments.insert(0, "baseline")  # the form without a subcommand
    args = _parser().parse_args(arguments)
    stream = out if out is not None else sys.stdout
    record = _Recorder(stream, args.jsonl)
    run = _run_gent if args.command == "gent" else _run_baseline
    try:
        asyncio.run(run(args, record))
    except (GentError, ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        hint = getattr(error, "hint", None)
        if hint:
            print(f"hint: {hint}", file=sys.stderr)
        return 2
    finally:
        record.close()
    print(json.dumps(summarize(record.results), indent=2), file=stream)
    return 0


if __name__ == "__main__":
    sys.exit(main())

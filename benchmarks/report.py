"""Write ``docs/benchmarks.md`` from the benchmarks' JSON results (``benchmarks/results/``).

    python benchmarks/report.py [--ran bench_formats,bench_agent] [--quick]

``python3 dev.py bench`` runs the benchmarks, then this. Every figure on the page comes from
a results file written by a benchmark run (see ``benchmarks/recorder.py``); the page says
which benchmarks ran in this run and gives the date of every one.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
PAGE = HERE.parent / "docs" / "benchmarks.md"

ORDER = (
    "bench_formats",
    "bench_natural",
    "bench_tools",
    "bench_tool_api",
    "bench_agent",
    "bench_plugins",
    "bench_cli",
    "bench_llamacpp",
    "bench_llamacpp_threads",
    "bench_eval_concurrency",
    "bench_eval_peers",
)
"""Benchmarks in the order the page shows them (others follow, by name)."""

SLOW = {
    "bench_llamacpp": "generates with the bundled model (several minutes)",
    "bench_llamacpp_threads": (
        "generates with the bundled model at 0 to 4 extra CPU burners (about 25 minutes on a "
        "busy 2-core machine)"
    ),
    "bench_eval_concurrency": (
        "runs 8 eval tasks on two local model servers (about 10 minutes; needs llama.cpp's "
        "llama-server binary, see the script)"
    ),
    "bench_eval_peers": "runs gent and two peer frameworks on the model server (about an hour)",
    "bench_plugins": "builds two virtual environments with 100 throwaway plugins",
}
"""Benchmarks ``dev.py bench --quick`` skips, and why."""

NONE = "\N{EN DASH}"
"""Shown where there is no figure."""

STATUS = {"met": "met", "missed": "**missed**", "retired": "retired"}


def load(folder: Path = RESULTS) -> dict[str, dict[str, Any]]:
    """Every results file, by benchmark name."""
    found = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        found[data["bench"]] = data
    return found


def figure(value: float | None, unit: str) -> str:
    """A figure with its unit; times scaled to s, ms or µs."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return NONE
    if unit == "s":
        magnitude = abs(value)
        if magnitude >= 1:
            return f"{value:.2f} s"
        if magnitude >= 1e-3:
            return f"{value * 1e3:.2f} ms"
        return f"{value * 1e6:.1f} µs"
    if unit == "x":
        return f"{value:.2f}x"
    if unit == "%":
        return f"{value:.0f}%"
    text = f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return f"{text} {unit}"


def comparison(row: dict[str, Any]) -> str:
    """gent's figure against the other, in words: ``3.2x faster``, ``1.4x slower``."""
    gent, other = row["gent"], row["other"]
    if row.get("words"):
        return str(row["words"])
    if other is None or gent is None:
        return ""
    if gent == 0 or other == 0:
        return NONE
    better = gent < other if row["lower_is_better"] else gent > other
    factor = max(gent, other) / min(gent, other)
    if row["unit"] == "s":
        words = ("faster", "slower")
    elif row["lower_is_better"]:
        words = ("lower", "higher")
    else:
        words = ("higher", "lower")
    if factor < 1.05:
        return "about the same"
    return f"{factor:.2f}x {words[0] if better else words[1]}"


def ratio(row: dict[str, Any]) -> str:
    """gent's figure divided by the other."""
    gent, other = row["gent"], row["other"]
    if other is None or gent is None or other == 0:
        return ""
    return f"{gent / other:.3g}"


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def measurement_table(data: dict[str, Any]) -> list[str]:
    lines = [
        "| measurement | gent | compared with (same run) | its figure | gent ÷ it | |",
        "|---|---:|---|---:|---:|---|",
    ]
    for row in data["measurements"]:
        note = f" ({row['note']})" if row.get("note") else ""
        lines.append(
            f"| {cell(row['name'] + note)} | {figure(row['gent'], row['unit'])} | "
            f"{cell(row['versus'] or NONE)} | {figure(row['other'], row['unit'])} | "
            f"{ratio(row)} | {comparison(row)} |"
        )
    return lines


def target_table(data: dict[str, Any]) -> list[str]:
    lines = ["| target | measured | verdict |", "|---|---|---|"]
    for target in data["targets"]:
        verdict = STATUS[target["status"]]
        if target["status"] == "retired":
            verdict += f": {target['reason']}"
            if target.get("instead"):
                verdict += f". Reported instead: {target['instead']}"
        elif target.get("reason"):
            verdict += f": {target['reason']}"
        lines.append(f"| {cell(target['goal'])} | {cell(target['measured'])} | {cell(verdict)} |")
    return lines


def headline(data: dict[str, Any]) -> dict[str, Any] | None:
    rows = [row for row in data["measurements"] if row.get("headline")]
    rows = rows or [row for row in data["measurements"] if row["other"] is not None]
    return rows[0] if rows else None


def machines(results: dict[str, dict[str, Any]]) -> list[str]:
    seen: dict[str, list[str]] = {}
    for name, data in results.items():
        info = data["machine"]
        key = f"{info['cpu']}, {info['cores']} cores, {info['python']}, {info['system']}"
        seen.setdefault(key, []).append(name)
    if len(seen) == 1:
        return [f"**Machine:** {next(iter(seen))}."]
    return [f"- {key}: {', '.join(names)}" for key, names in seen.items()]


def render(results: dict[str, dict[str, Any]], ran: list[str], quick: bool) -> str:
    names = [name for name in ORDER if name in results]
    names += sorted(name for name in results if name not in ORDER)
    today = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d")
    out = [
        "# Benchmarks",
        "",
        "<!-- Generated by `python3 dev.py bench` (benchmarks/report.py): do not edit by hand. -->",
        "",
        "Every figure below was measured on the machine named here by the benchmark scripts in "
        "`benchmarks/`, each comparison in one run: gent's figure next to the peer framework's "
        "(LangChain, LangGraph, smolagents) or the baseline it is measured against, and their "
        "ratio. Times are CPU or wall time as each benchmark says; run them yourself with "
        "`python3 dev.py bench` (all of them) or `python3 dev.py bench --quick` (without the "
        "ones that need the model or servers), or one script alone, e.g. "
        "`.venv/bin/python benchmarks/bench_formats.py`.",
        "",
        *machines(results),
        "",
        f"**Page written:** {today}"
        + (" by `dev.py bench --quick`." if quick else " by `dev.py bench`."),
        "",
        "The machine is shared: the load average (1 minute) at the start and the end of each "
        "benchmark is shown, since other processes on its cores slow the wall-time figures "
        "(CPU-time figures much less).",
        "",
        "| benchmark | run | date (UTC) | took | load at start / end |",
        "|---|---|---|---:|---|",
    ]
    for name in names:
        data = results[name]
        when = "in this run" if name in ran else "earlier run"
        load = " / ".join(NONE if x is None else f"{x:.1f}" for x in data.get("load", []))
        out.append(
            f"| [{data['title']}](#{name.replace('_', '-')}) | {when} | {data['date']} | "
            f"{data['seconds']:.0f} s | {load or NONE} |"
        )
    missing = [name for name in ORDER if name not in results]
    for name in missing:
        out.append(f"| `{name}` | never run | {NONE} | {NONE} | {NONE} |")
    out += ["", "## Headline figures", ""]
    out += [
        "| benchmark | measurement | gent | compared with | its figure | |",
        "|---|---|---:|---|---:|---|",
    ]
    for name in names:
        row = headline(results[name])
        if row is None:
            continue
        out.append(
            f"| {cell(results[name]['title'])} | {cell(row['name'])} | "
            f"{figure(row['gent'], row['unit'])} | {cell(row['versus'] or NONE)} | "
            f"{figure(row['other'], row['unit'])} | {comparison(row)} |"
        )
    retired = [
        (name, t) for name in names for t in results[name]["targets"] if t["status"] == "retired"
    ]
    missed = [
        (name, t) for name in names for t in results[name]["targets"] if t["status"] == "missed"
    ]
    met = sum(t["status"] == "met" for name in names for t in results[name]["targets"])
    out += [
        "",
        "## Targets",
        "",
        f"{met} met, {len(missed)} missed, {len(retired)} retired (cannot be reached by any "
        "implementation; the reason and the measurement that shows it are given, with what "
        "is reported instead).",
    ]
    if missed:
        out += ["", "Missed:", ""]
        out += [
            f"- {results[name]['title']}: {t['goal']} — measured {t['measured']}"
            for name, t in missed
        ]
    if retired:
        out += ["", "Retired:", ""]
        for name, t in retired:
            line = (
                f"- {results[name]['title']}: *{t['goal']}* (measured {t['measured']}). "
                f"{t['reason'][:1].upper()}{t['reason'][1:]}."
            )
            if t.get("instead"):
                line += f" Reported instead: {t['instead']}."
            out.append(line)
    for name in names:
        data = results[name]
        out += [
            "",
            f"## {data['title']} {{#{name.replace('_', '-')}}}",
            "",
            data["about"],
            "",
            f"`{data['command']}` — {data['date']}, {data['seconds']:.0f} s.",
            "",
        ]
        out += measurement_table(data)
        if data["targets"]:
            out += ["", *target_table(data)]
        if data["notes"]:
            out += [""] + [f"- {note}" for note in data["notes"]]
    if missing:
        out += ["", "## Not run yet", ""]
        out += [
            f"- `{name}`: {SLOW.get(name, '')} — `python benchmarks/{name}.py`" for name in missing
        ]
    return "\n".join(out) + "\n"


def main() -> None:
    """Write the page from the results files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ran", default="", help="benchmarks run in this run (comma-separated)")
    parser.add_argument("--quick", action="store_true", help="this run skipped the slow ones")
    parser.add_argument("--output", type=Path, default=PAGE, help="the page to write")
    args = parser.parse_args()
    results = load()
    ran = [name for name in args.ran.split(",") if name]
    args.output.write_text(render(results, ran, args.quick), encoding="utf-8")
    print(f"wrote {args.output} ({len(results)} benchmarks)")


if __name__ == "__main__":
    main()

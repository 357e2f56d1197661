"""Threads of the local model on a busy machine: prompt and generation speed of the bundled
Gemma 3 270M with 1, 2 and all threads, at several loads.

Each thread setting is one loaded model. At each load (0, 1, 2 and 4 extra CPU burners: spin
loops in subprocesses started here and killed after, on top of whatever else the machine runs;
with ``--burner llama`` each burner is the model itself generating on every core, as another
gent would),
every setting evaluates the same fixed prompt of a few hundred tokens (its first words changed
each time, so no cache is reused) and then generates a fixed number of tokens greedily. The
settings take turns, in a rotating order, ``--repeats`` times; the tables give medians and, per
load, each setting's speed as a ratio of the best setting's in the same run. ``step`` is the
whole call (prompt, then generation): what one agent step costs. The 1-minute load average is
read before and after each level.

The settings: ``n_threads`` 1, 2 and all cores (generation and prompt alike); all cores with
llama.cpp's ``poll 0`` (xllamacpp only: how long its idle threads spin; builds that use
OpenMP, as the Linux wheels do, ignore it, so this row repeats the all-cores one and shows how
far two runs of the same setting differ); and a split, ``n_threads_batch`` all cores for the
prompt and one thread for generation. The row marked ``*`` is gent-llamacpp's default
(:func:`gent_llamacpp.threads.default_threads`).

Run: python benchmarks/bench_llamacpp_threads.py [--loads 0,1,2,4] [--repeats 5]
     [--prompt-words 220] [--gen-tokens 48] [--burner spin|llama] [--binding xllamacpp]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from gent_llamacpp.bundled_model import model_file
from gent_llamacpp.engine import Engine, EngineOptions, Sampling, open_engine, resolve_binding
from gent_llamacpp.threads import Threads, available_cores, default_threads
from recorder import Recorder, load_average

SENTENCE = (
    "The agent reads the task, decides which of its tools fits, writes the call with its "
    "arguments as JSON, reads the observation that comes back, and then either calls another "
    "tool or gives the answer in a few words."
)
GREEDY = Sampling(temperature=0.0, top_k=1, top_p=1.0, min_p=0.0, repeat_penalty=1.0, seed=1)


@dataclass(frozen=True)
class Setting:
    """One thread setting: a model loaded with these threads."""

    label: str
    threads: Threads
    poll: int | None = None


@dataclass
class Samples:
    """One setting's measurements at one load."""

    prompt: list[float] = field(default_factory=list)  # tokens/s
    generation: list[float] = field(default_factory=list)  # tokens/s
    step: list[float] = field(default_factory=list)  # seconds


def settings_for(cores: int, binding: str) -> list[Setting]:
    """1, 2 and all threads; all with ``poll 0`` (xllamacpp); prompt on all, generation 1."""
    found: list[Setting] = []
    for count in sorted({1, min(2, cores), cores}):
        label = f"n_threads={count}" + (" (all)" if count == cores and count > 1 else "")
        found.append(Setting(label, Threads(count, count)))
    if cores > 1:
        if binding == "xllamacpp":
            found.append(Setting(f"n_threads={cores}, poll=0", Threads(cores, cores), poll=0))
        found.append(Setting(f"n_threads=1, n_threads_batch={cores}", Threads(1, cores)))
    return found


def prompt_text(words: int, number: int) -> str:
    """The fixed prompt, about ``words`` words, with a first line no earlier call had."""
    sentences = SENTENCE.split()
    body = " ".join(sentences[index % len(sentences)] for index in range(words))
    return f"Note {number}.\n{body}"


def measure(engine: Engine, prompt: str, gen_tokens: int) -> tuple[float, float, float, int]:
    """Prompt tokens/s, generation tokens/s, step seconds and prompt tokens of one call."""
    result = engine.generate(
        prompt,
        max_tokens=gen_tokens,
        sampling=GREEDY,
        grammar=None,
        stops=[],
        on_text=lambda _text: False,
        cancelled=lambda: False,
    )
    prompt_rate = result.prompt_tokens / result.prompt_seconds if result.prompt_seconds else 0.0
    gen_rate = (
        result.output_tokens / result.generation_seconds if result.generation_seconds else 0.0
    )
    return (
        prompt_rate,
        gen_rate,
        result.prompt_seconds + result.generation_seconds,
        result.prompt_tokens,
    )


LLAMA_BURNER = """
import sys
from gent_llamacpp.bundled_model import model_file
from gent_llamacpp.engine import EngineOptions, Sampling, open_engine

threads = int(sys.argv[1])
options = EngineOptions(n_ctx=1024, n_threads=threads, n_threads_batch=threads, seed=1,
                        verbose=False)
engine = open_engine("xllamacpp", str(model_file()), options)
sampling = Sampling(temperature=0.0, top_k=1, top_p=1.0, min_p=0.0, repeat_penalty=1.0, seed=1)
number = 0
while True:
    number += 1
    engine.generate(f"Story {number}. Once upon a time", max_tokens=64, sampling=sampling,
                    grammar=None, stops=[], on_text=lambda _text: False,
                    cancelled=lambda: False)
"""
"""A burner that is another program running the model on every core, as a second gent
would: it evaluates a short prompt and generates 64 tokens, over and over."""


@contextmanager
def burners(count: int, kind: str, cores: int) -> Iterator[None]:
    """``count`` burner subprocesses for the duration of the block, killed after:
    ``spin`` loops, or ``llama`` (:data:`LLAMA_BURNER` on ``cores`` threads)."""
    with tempfile.TemporaryDirectory(prefix="bench-threads-") as scratch:
        # the llama burners' server sockets go to a folder removed after they are killed
        environment = {**os.environ, "TMPDIR": scratch}
        code = ["-c", "while True:\n    pass\n"]
        if kind == "llama":
            code = ["-c", LLAMA_BURNER, str(cores)]
        processes = [
            subprocess.Popen([sys.executable, *code], env=environment) for _ in range(count)
        ]
        try:
            if count:
                time.sleep(2.0 if kind == "spin" else 6.0)  # let them start
            yield
        finally:
            for process in processes:
                process.kill()
            for process in processes:
                process.wait()


def run_level(
    engines: dict[Setting, Engine], burn: int, args: argparse.Namespace, counter: list[int]
) -> dict[Setting, Samples]:
    """Every setting, ``args.repeats`` times in rotating order, with ``burn`` burners."""
    samples = {setting: Samples() for setting in engines}
    order = list(engines)
    with burners(burn, args.burner, available_cores()):
        for repeat in range(args.repeats):
            turn = order[repeat % len(order) :] + order[: repeat % len(order)]
            for setting in turn:
                counter[0] += 1
                prompt_rate, gen_rate, step, _ = measure(
                    engines[setting], prompt_text(args.prompt_words, counter[0]), args.gen_tokens
                )
                samples[setting].prompt.append(prompt_rate)
                samples[setting].generation.append(gen_rate)
                samples[setting].step.append(step)
    return samples


def ratio(value: float, best: float) -> float:
    """``value`` as a fraction of ``best``."""
    return value / best if best else 0.0


def print_level(
    burn: int,
    loads: tuple[float | None, float | None],
    medians: dict[Setting, tuple[float, float, float]],
    pick: Setting | None,
) -> None:
    """One load level's table: medians and ratios to the best setting."""
    best_prompt = max(m[0] for m in medians.values())
    best_gen = max(m[1] for m in medians.values())
    best_step = min(m[2] for m in medians.values())
    print(f"\n{burn} burners (1-minute load average {loads[0]} before, {loads[1]} after)")
    print(
        f"  {'setting':<36} {'prompt tok/s':>12} {'ratio':>6} {'gen tok/s':>10} {'ratio':>6} "
        f"{'step s':>7} {'ratio':>6}"
    )
    for setting, (prompt, gen, step) in medians.items():
        mark = "*" if setting == pick else " "
        print(
            f" {mark}{setting.label:<36} {prompt:>12.1f} {ratio(prompt, best_prompt):>6.2f} "
            f"{gen:>10.1f} {ratio(gen, best_gen):>6.2f} {step:>7.2f} "
            f"{ratio(best_step, step):>6.2f}"
        )


def record_level(
    record: Recorder,
    burn: int,
    loads: tuple[float | None, float | None],
    medians: dict[Setting, tuple[float, float, float]],
) -> None:
    """Every setting's medians at one level, each next to the best one's."""
    best = (
        max(m[0] for m in medians.values()),
        max(m[1] for m in medians.values()),
        min(m[2] for m in medians.values()),
    )
    level = f"{burn} burners (load {loads[0]} before, {loads[1]} after)"
    for setting, (prompt, gen, step) in medians.items():
        for what, value, top, unit, lower in (
            ("prompt", prompt, best[0], "tok/s", False),
            ("generation", gen, best[1], "tok/s", False),
            ("step", step, best[2], "s", True),
        ):
            record.measure(
                f"{level}: {setting.label}: {what}",
                value,
                unit,
                versus="the best setting at this load",
                other=top,
                lower_is_better=lower,
            )


def chosen(settings: list[Setting], cores: int) -> Setting | None:
    """The measured setting that gent-llamacpp uses by default (:func:`default_threads`)."""
    threads = default_threads(cores)
    return next((s for s in settings if s.threads == threads and s.poll is None), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--loads", default="0,1,2,4", help="burner counts, comma-separated")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--prompt-words", type=int, default=220)
    parser.add_argument("--gen-tokens", type=int, default=48)
    parser.add_argument(
        "--burner",
        default="spin",
        choices=["spin", "llama"],
        help="what each burner runs: a spin loop, or the model itself on every core",
    )
    parser.add_argument("--binding", default="xllamacpp", choices=["xllamacpp", "llama-cpp-python"])
    args = parser.parse_args()
    levels = [int(part) for part in args.loads.split(",")]

    binding = resolve_binding(args.binding)
    cores = available_cores()
    settings = settings_for(cores, binding)
    path = str(model_file())
    engines: dict[Setting, Engine] = {}
    for setting in settings:
        options = EngineOptions(
            n_ctx=2048,
            n_threads=setting.threads.generation,
            n_threads_batch=setting.threads.batch,
            seed=1,
            verbose=False,
            poll=setting.poll,
        )
        engines[setting] = open_engine(binding, path, options)
    counter = [0]
    _, _, _, prompt_tokens = measure(engines[settings[0]], prompt_text(args.prompt_words, 0), 1)
    print(
        f"{binding}, {cores} cores, prompt {prompt_tokens} tokens, {args.gen_tokens} tokens "
        f"generated greedily, medians of {args.repeats} repeats"
    )
    record = Recorder(
        "bench_llamacpp_threads",
        "Local model: threads on a busy machine",
        f"Gemma 3 270M ({binding}, in process) on {cores} cores: a {prompt_tokens}-token prompt, "
        f"then {args.gen_tokens} tokens generated greedily, with 1, 2 and all threads, all "
        "threads with poll 0, and prompt on all threads / generation on one, at "
        f"{args.loads} extra CPU burners ({args.burner}); medians of "
        f"{args.repeats} interleaved repeats. The figure is gent's default, compared with the "
        "best setting at the same load.",
    )
    worst = 1.0
    for burn in levels:
        before = load_average()
        samples = run_level(engines, burn, args, counter)
        after = load_average()
        medians = {
            setting: (
                statistics.median(s.prompt),
                statistics.median(s.generation),
                statistics.median(s.step),
            )
            for setting, s in samples.items()
        }
        pick = chosen(settings, cores)
        print_level(burn, (before, after), medians, pick)
        record_level(record, burn, (before, after), medians)
        if pick is None:
            print(f"  gent's default {default_threads(cores)} was not measured")
            continue
        best_step = min(m[2] for m in medians.values())
        mine = medians[pick][2]
        worst = min(worst, best_step / mine)
        record.measure(
            f"{burn} burners (load {before} before): one step, gent's default ({pick.label})",
            mine,
            "s",
            versus="the best setting at this load",
            other=best_step,
            headline=True,
        )
    record.note(f"Worst ratio of gent's default to the best setting: {worst:.2f}.")
    print(f"\nworst ratio of gent's default to the best setting (step): {worst:.2f}")
    record.save()
    for engine in engines.values():
        engine.close()


if __name__ == "__main__":
    main()

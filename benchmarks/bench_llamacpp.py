"""Tokens per second of the llamacpp model (Gemma 3 270M) with and without the agent grammar.

For each format x tool chain, the same few-shot prompt is generated three ways, prompt
evaluation excluded (the prompt is cached by a first, untimed run):

* free:        no grammar;
* gent:        gent's grammar, checked lazily (sample freely, constrain only refused tokens);
* eager:       the same grammar applied to every candidate at every step
               (llama-cpp-python's ``create_completion(grammar=...)``), for comparison.

The three run on the llama-cpp-python binding (the eager comparison needs its high-level API);
``xllamacpp`` adds the default binding's rate with the grammar (llama.cpp's own lazy sampler).

Run: python benchmarks/bench_llamacpp.py [--runs N] [--max-tokens N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from gent_llamacpp.model import LlamaCppModel

from gent_core import tool
from gent_core._grammar import build_agent_grammar
from gent_core._terminations.text import TextTermination
from gent_core.messages import Message
from gent_core.model import ModelRequest, OutputStructure
from gent_core.sections import TextSection
from gent_core.testing._helpers import PluginSandbox

FORMATS = ["xml", "markdown"]
CHAINS = ["json", "yaml"]


@tool
def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression such as 17 * 23."""
    return expression


@tool
def search(query: str, limit: int = 3) -> list[str]:
    """Search the web."""
    return [query] * limit


def make_structure(format_name: str, chain_name: str) -> OutputStructure:
    sandbox = PluginSandbox()
    sandbox.load_installed()
    registry = sandbox.registry()
    text_format = registry.create("format", format_name)
    chain = registry.create("toolchain", chain_name, tools=[calculator, search])
    answer = TextTermination()
    sections = [TextSection("thinking", "Think briefly."), chain, answer]
    return OutputStructure(text_format, sections, chain, answer)


TASKS = ["What is 17 * 23?", "Search the web for the tallest mountain in Europe."]


async def gent_rate(model: LlamaCppModel, request: ModelRequest) -> tuple[float, int]:
    await model.complete(request)  # cache the prompt
    await model.complete(request)
    stats = model.last_stats
    assert stats is not None
    return stats.tokens_per_second, stats.output_tokens


def eager_rate(model: LlamaCppModel, prompt: str, grammar: str, max_tokens: int) -> float:
    from llama_cpp.llama_grammar import LlamaGrammar

    llm: Any = model._engine._llm  # type: ignore[union-attr]
    llm.create_completion(prompt, max_tokens=1)  # cache the prompt
    started = time.perf_counter()
    count = 0
    first: float | None = None
    for _ in llm.create_completion(
        prompt,
        max_tokens=max_tokens,
        temperature=0.8,
        seed=1,
        stream=True,
        grammar=LlamaGrammar.from_string(grammar, verbose=False),
    ):
        count += 1
        if first is None:
            first = time.perf_counter()
    end = time.perf_counter()
    return (count - 1) / (end - (first or started)) if count > 1 else 0.0


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=120)
    args = parser.parse_args()

    binding = "llama-cpp-python"
    free = LlamaCppModel(seed=1, temperature=0.8, grammar=False, binding=binding)
    constrained = LlamaCppModel(seed=1, temperature=0.8, grammar=True, binding=binding)
    prebuilt = LlamaCppModel(seed=1, temperature=0.8, grammar=True, binding="xllamacpp")
    started = time.perf_counter()
    await free.load()
    print(f"model load: {time.perf_counter() - started:.2f} s (first load in this process)")
    await constrained.load()
    print(f"model load: {constrained.load_seconds:.2f} s (second load)")
    await prebuilt.load()
    print(f"model load: {prebuilt.load_seconds:.2f} s (xllamacpp)")
    print()
    header = f"{'combination':<16} {'free tok/s':>10} {'gent tok/s':>10} {'eager tok/s':>11}"
    print(f"{header} {'gent/free':>9} {'gent/eager':>10}")
    totals: dict[str, list[float]] = {"free": [], "gent": [], "eager": [], "xllamacpp": []}
    from recorder import Recorder

    record = Recorder(
        "bench_llamacpp",
        "Local model: tokens per second with the agent grammar",
        "Generation speed of the bundled Gemma 3 270M (llama-cpp-python, in process) on the "
        f"same few-shot prompt, up to {args.max_tokens} tokens, prompt evaluation excluded: "
        "without a grammar, with gent's grammar (checked lazily: sample freely, constrain only "
        "refused tokens), and with the same grammar applied eagerly by llama-cpp-python "
        "(create_completion(grammar=...)).",
    )
    for fmt in FORMATS:
        for chain in CHAINS:
            structure = make_structure(fmt, chain)
            system = "You are a helpful agent.\n" + structure.format.describe(
                list(structure.sections)
            )
            grammar = build_agent_grammar(structure).text
            rates: dict[str, list[float]] = {"free": [], "gent": [], "eager": [], "xllamacpp": []}
            for task in TASKS[: max(1, args.runs)]:
                request = ModelRequest(
                    [Message.system(system), Message.user(task)],
                    max_tokens=args.max_tokens,
                    structure=structure,
                )
                rates["free"].append((await gent_rate(free, request))[0])
                rates["gent"].append((await gent_rate(constrained, request))[0])
                rates["xllamacpp"].append((await gent_rate(prebuilt, request))[0])
                prompt = constrained.prompt_for(request)
                rates["eager"].append(eager_rate(constrained, prompt, grammar, args.max_tokens))
            means = {key: statistics.mean(values) for key, values in rates.items()}
            for key, value in means.items():
                totals[key].append(value)
            record.measure(
                f"{fmt} x {chain}: constrained generation",
                means["gent"],
                "tok/s",
                versus="llama-cpp-python's grammar (eager)",
                other=means["eager"],
                lower_is_better=False,
            )
            print(
                f"{fmt + ' x ' + chain:<16} {means['free']:>10.1f} {means['gent']:>10.1f} "
                f"{means['eager']:>11.1f} {means['gent'] / means['free']:>9.2f} "
                f"{means['gent'] / means['eager']:>10.2f}"
            )
    overall = {key: statistics.mean(values) for key, values in totals.items()}
    print(
        f"{'mean':<16} {overall['free']:>10.1f} {overall['gent']:>10.1f} "
        f"{overall['eager']:>11.1f} {overall['gent'] / overall['free']:>9.2f} "
        f"{overall['gent'] / overall['eager']:>10.2f}"
    )
    record.measure(
        "mean over formats x chains: constrained generation",
        overall["gent"],
        "tok/s",
        versus="llama-cpp-python's grammar (eager)",
        other=overall["eager"],
        lower_is_better=False,
        headline=True,
    )
    record.measure(
        "mean over formats x chains: constrained generation",
        overall["gent"],
        "tok/s",
        versus="no grammar at all",
        other=overall["free"],
        lower_is_better=False,
    )
    record.measure(
        "mean over formats x chains: constrained generation with xllamacpp",
        overall["xllamacpp"],
        "tok/s",
        versus="llama-cpp-python with gent's grammar",
        other=overall["gent"],
        lower_is_better=False,
    )
    record.save()
    await free.aclose()
    await constrained.aclose()
    await prebuilt.aclose()


if __name__ == "__main__":
    asyncio.run(main())

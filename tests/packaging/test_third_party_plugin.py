"""Issue 10's acceptance test: a third-party format and tool chain, installed from wheels into
a fresh virtual environment next to gent-core and the shipped plugins, get what the shipped
ones get (few-shot examples written by their own methods, their grammar or an unconstrained
section) and run agents on the local model, with no change to gent_core.

The plugin is ``tests/packaging/acme_plugin.py`` (a ``[[name]]`` format without a grammar of
its own, and ``CALL tool {json}`` chains with and without one). One environment is built per
test session; the model is the default Gemma 3 270M, given by path so the environment does
not download it again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from gent_tools_basic.calculator_tool import EXAMPLES as calculator_examples

from gent_core.testing._distributions import write_plugin_project
from tests.packaging.acme_plugin import SOURCE

pytestmark = [pytest.mark.slow, pytest.mark.llama, pytest.mark.model]

REPO = Path(__file__).resolve().parents[2]
SHIPPED = ["gent-xml", "gent-json", "gent-tools-basic", "gent-prompt"]
"""Installed from the checkout as wheels; gent-prompt is what the model back end needs besides
gent-core (the back end itself is installed without its dependencies, below)."""


@dataclass(frozen=True)
class Environment:
    """A fresh virtual environment with gent-core, shipped plugins and gent-acme."""

    root: Path
    model_path: Path

    def bin(self, name: str) -> Path:
        return self.root / ("Scripts" if os.name == "nt" else "bin") / name

    def gent(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        environ = {k: v for k, v in os.environ.items() if not k.startswith("GENT_")}
        return subprocess.run(
            [str(self.bin("gent")), *args],
            capture_output=True,
            text=True,
            env=environ,
            timeout=timeout,
            cwd=self.root.parent,
        )

    def config(self, name: str, format_name: str, chain: str) -> Path:
        path = self.root.parent / f"{name}.yaml"
        model = {
            "name": "llamacpp",
            "model_path": str(self.model_path),
            "temperature": 0,
            "seed": 7,
            "max_tokens": 160,
        }
        path.write_text(
            json.dumps(
                {
                    "model": model,
                    "format": format_name,
                    "toolchain": chain,
                    "tools": ["calculator"],
                    "max_steps": 2,
                }
            )
        )
        return path


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    from gent_llamacpp.bundled_model import model_file

    root = tmp_path_factory.mktemp("third-party")
    acme = write_plugin_project(root, "gent-acme", SOURCE, entry_point="acme")
    env = root / "venv"
    venv.EnvBuilder(with_pip=True).create(env)
    python = str(env / ("Scripts" if os.name == "nt" else "bin") / "python")
    llama = f"llama-cpp-python=={metadata.version('llama-cpp-python')}"  # the cached wheel
    pip = [python, "-m", "pip", "install", "-q"]
    # Wheels, not editable installs: what a user gets from an index.
    plugins = [str(REPO / "plugins" / name) for name in SHIPPED]
    subprocess.run([*pip, str(REPO), *plugins, str(acme), llama], check=True, timeout=1200)
    # The model back end without its model-file packages: the model is given by path.
    llamacpp = str(REPO / "plugins" / "gent-llamacpp")
    subprocess.run([*pip, "--no-deps", llamacpp], check=True, timeout=600)
    return Environment(env, model_file())


def test_the_plugin_is_discovered_next_to_the_shipped_ones(environment: Environment) -> None:
    listed = environment.gent("plugins", "--json")
    assert listed.returncode == 0, listed.stderr
    plugins = {info["name"]: info for info in json.loads(listed.stdout)}
    assert plugins["acme"]["status"] == "loaded"
    assert plugins["acme"]["components"] == {
        "format": ["brackets"],
        "toolchain": ["acme", "acme-free"],
    }
    assert not (Path(sys.prefix) / "gent_acme").exists()  # not in the test's own environment


def sections(out: str) -> dict[str, str]:
    """``gent describe``'s output split at its ``# Title`` lines."""
    parts: dict[str, str] = {}
    title = ""
    for line in out.splitlines(keepends=True):
        if line.startswith("# ") and line[2:3].isupper():
            title = line[2:].strip()
            parts[title] = ""
        elif title:
            parts[title] += line
    return {key: value.strip("\n") for key, value in parts.items()}


def test_its_components_write_the_few_shot_example_and_its_chain_the_grammar(
    environment: Environment,
) -> None:
    config = environment.config("acme", "brackets", "acme")
    described = environment.gent("describe", str(config), "--prompt", "What is 17 * 23?")
    assert described.returncode == 0, described.stderr
    parts = sections(described.stdout)
    request = next(text for title, text in parts.items() if title.startswith("Request sent"))
    example = request.split("of the format:\n", 1)[1].split("Now the real task:")[0]
    # The calculator's first declared example, written by the format's sections around the
    # chain's own format_calls, then the observation the format writes (nested sections, so
    # its verbatim form with the length).
    declared = calculator_examples[0]
    call = json.dumps(dict(declared.arguments))
    assert f"[[action]]\nCALL calculator {call}\n[[/action]]\n[[observation:" in example
    assert f"[[calculator]]\n{declared.result}\n[[/calculator]]\n[[/observation]]" in example
    assert f"[[answer]]\n{declared.answer}\n[[/answer]]" in example
    assert request.rstrip().endswith("[[task]]\nWhat is 17 * 23?\n[[/task]]")
    assert '"CALL calculator " acme-calculator-args' in parts["Grammar (GBNF)"]
    assert parts["What constrains each section"].splitlines() == [
        "- thinking: free text, conservative: format 'brackets' (BracketFormat) offers no "
        "grammar_text, so the rule only keeps the format's delimiters out",
        "- action: calls of the agent's tools with valid arguments, from grammar_calls of "
        "tool chain AcmeChain",
        "- answer: free text, conservative: format 'brackets' (BracketFormat) offers no "
        "grammar_text, so the rule only keeps the format's delimiters out",
    ]


def test_a_chain_without_a_grammar_gets_an_unconstrained_section(
    environment: Environment,
) -> None:
    config = environment.config("acme-free", "xml", "acme-free")
    described = environment.gent("describe", str(config))
    assert described.returncode == 0, described.stderr
    coverage = sections(described.stdout)["What constrains each section"].splitlines()
    assert coverage[1] == (
        "- action: unconstrained: tool chain FreeAcmeChain offers no grammar (grammar_calls "
        "returned None), so the section holds any text that cannot close it"
    )
    assert coverage[0] == "- thinking: free text, from grammar_text of format 'xml' (XMLFormat)"


@pytest.mark.parametrize(
    ("name", "format_name", "chain"),
    [
        ("acme", "brackets", "acme"),
        ("acme-free", "xml", "acme-free"),
        ("mixed", "brackets", "json"),
    ],
)
def test_agents_configured_with_them_run_on_the_local_model(
    environment: Environment, name: str, format_name: str, chain: str
) -> None:
    config = environment.config(name, format_name, chain)
    ran = environment.gent("run", str(config), "What is 17 * 23?", "--json", timeout=900)
    assert ran.returncode in (0, 1), ran.stderr  # answered, or stopped at a limit: no crash
    result = json.loads(ran.stdout)
    steps = result["steps"]
    assert steps, result
    first = steps[0]
    if chain != "acme-free":
        # Constrained by the components' grammars, the first output is always usable: a
        # thinking section then an action whose calls ran, or an answer.
        assert first["outcome"] in ("action", "answer"), first
        if first["outcome"] == "action":
            assert [call["tool"] for call in first["calls"]] == ["calculator"], first
            assert first["calls"][0]["status"] == "success", first
    assert result["stop_reason"] in (
        "answer",
        "max_steps",
        "max_model_calls",
        "format_errors",
        "tool_errors",
        "repeated_failure",
    )

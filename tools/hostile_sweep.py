"""A sweep of hostile inputs through the real ``gent`` command (issue 17's classes, with
variants): each scenario runs ``gent`` in a fresh directory and checks that it ends in time,
with an expected exit status, without a traceback, and with the scenario's own invariant
(the task printed intact, a file left alone...).

    .venv/bin/python tools/hostile_sweep.py            # every scenario, a summary at the end
    .venv/bin/python tools/hostile_sweep.py -k nested  # the scenarios whose name has "nested"

Not a test (the tests hold one regression test per defect and a variant); this is the count
the closing note of the hardening issue reports, and a quick way to probe a class again.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GENT = str(Path(sys.executable).with_name("gent"))
TIMEOUT = 60.0


@dataclass
class Outcome:
    """What one run of ``gent`` did."""

    code: int
    out: str
    err: str
    seconds: float
    folder: Path


@dataclass
class Scenario:
    """One hostile input: the arguments, files to write first, stdin, and what must hold."""

    name: str
    args: list[str]
    files: dict[str, str | bytes] = field(default_factory=dict)
    codes: tuple[int, ...] = (0, 1, 2)
    env: dict[str, str] = field(default_factory=dict)
    stdin: str | None = None
    check: Callable[[Outcome], str | None] | None = None
    program: list[str] | None = None  # what runs instead of gent (python -c ...), args after


def scripted(*outputs: str, extra: str = "") -> str:
    """A config of the built-in scripted model with ``outputs``."""
    return (
        "model:\n  name: scripted\n  outputs: "
        + json.dumps(list(outputs))
        + "\nformat: xml\ntoolchain: json\ntools: [calculator]\n"
        + extra
    )


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def contains(text: str, where: str = "out") -> Callable[[Outcome], str | None]:
    def check(outcome: Outcome) -> str | None:
        shown = outcome.out if where == "out" else outcome.err
        return None if text in shown else f"{text!r} not in {where}"

    return check


def json_task_intact(task: str) -> Callable[[Outcome], str | None]:
    def check(outcome: Outcome) -> str | None:
        try:
            data = json.loads(outcome.out)
        except ValueError as error:
            return f"--json is not JSON: {error}"
        return None if data.get("task") == task else f"task changed: {data.get('task')!r}"

    return check


ANSWER = "<thinking>Done.</thinking><answer>It is local, none of it.</answer>"
TASK = "Is none of these local numbers prime?"


def scenarios() -> list[Scenario]:
    found = [
        # 1. redaction never rewrites the user's text
        Scenario(
            "redaction-short-api-key-json",
            ["run", "o.yaml", TASK, "--json"],
            {
                "o.yaml": "model: {name: openai, base_url: 'http://127.0.0.1:9/v1', model: local, "
                "api_key: none}\n"
            },
            check=json_task_intact(TASK),
        ),
        Scenario(
            "redaction-env-api-key-in-task",
            ["run", "o.yaml", TASK, "--json"],
            {
                "o.yaml": "model: {name: openai, base_url: 'http://127.0.0.1:9/v1', model: local, "
                "api_key: '${MY_KEY}'}\n"
            },
            env={"MY_KEY": "numbers"},
            check=json_task_intact(TASK),
        ),
        Scenario(
            "redaction-env-model-name",
            ["run", "a.yaml", TASK, "--json"],
            {"a.yaml": scripted(ANSWER)},
            env={"OPENAI_MODEL": "local"},
            check=json_task_intact(TASK),
        ),
        Scenario(
            "redaction-answer-intact-live",
            ["run", "a.yaml", TASK],
            {"a.yaml": scripted(ANSWER)},
            env={"API_TOKEN": "e"},
            check=contains("It is local, none of it."),
        ),
    ]
    # 2. unbounded input at the command line
    for levels in (150, 2_000, 20_000):
        found += [
            Scenario(
                f"call-nested-args-{levels}",
                ["call", "calculator", '{"expression": ' + nested(levels) + "}"],
                codes=(2,),
            ),
            Scenario(
                f"call-nested-arg-{levels}",
                ["call", "calculator", "--arg", f"expression={nested(levels)}"],
                codes=(2,),
            ),
            Scenario(
                f"run-override-nested-{levels}",
                ["run", "a.yaml", "x", "-o", f"prompt.append={nested(levels)}"],
                {"a.yaml": scripted(ANSWER)},
                codes=(2,),
            ),
            Scenario(
                f"describe-override-nested-{levels}",
                ["describe", "a.yaml", "-o", f"prompt.append={nested(levels)}"],
                {"a.yaml": scripted(ANSWER)},
                codes=(2,),
            ),
            Scenario(
                f"convert-nested-file-{levels}",
                ["convert", "--to", "text", "deep.json"],
                {"deep.json": nested(levels)},
                codes=(1, 2),
            ),
            Scenario(
                f"config-nested-yaml-{levels}",
                ["run", "deep.yaml", "x"],
                {"deep.yaml": "model: " + nested(levels) + "\n"},
                codes=(2,),
            ),
        ]
    for value in ("NaN", "Infinity", "-Infinity", "1" * 5000, '"\\ud800"'):
        found.append(
            Scenario(
                f"call-odd-number-{value[:10]}",
                ["call", "calculator", '{"expression": ' + value + "}"],
                codes=(1, 2),
            )
        )
    found += [
        Scenario(
            "config-not-utf8",
            ["run", "bad.yaml", "x"],
            {"bad.yaml": b"\xff\xfe\x00model"},
            codes=(2,),
        ),
        Scenario(
            "config-binary-nul", ["run", "bad.yaml", "x"], {"bad.yaml": "model: \x00\n"}, codes=(2,)
        ),
        Scenario(
            "config-alias-bomb", ["run", "bomb.yaml", "x"], {"bomb.yaml": _alias_bomb()}, codes=(2,)
        ),
        Scenario("config-a-list", ["run", "list.yaml", "x"], {"list.yaml": "[1, 2]\n"}, codes=(2,)),
        Scenario(
            "config-outputs-string",
            ["run", "o.yaml", "x"],
            {"o.yaml": "model: {name: scripted, outputs: abc}\n"},
            codes=(2,),
        ),
        Scenario(
            "config-outputs-ints",
            ["run", "o.yaml", "x"],
            {"o.yaml": "model: {name: scripted, outputs: [1, 2]}\n"},
            codes=(2,),
            check=lambda o: ("pydantic.dev" in o.err and "pydantic URL shown") or None,
        ),
        Scenario("config-missing-file", ["run", "nowhere.yaml", "x"], codes=(2,)),
        Scenario("config-a-directory", ["run", ".", "x"], codes=(2,)),
        Scenario(
            "json-termination-ref-loop",
            ["run", "r.yaml", "x"],
            {
                "r.yaml": scripted(
                    ANSWER,
                    extra=(
                        "termination: {name: json, schema: {$ref: '#/$defs/a', "
                        "$defs: {a: {$ref: '#/$defs/a'}}}}\n"
                    ),
                )
            },
            codes=(2,),
        ),
    ]
    # 3. catastrophic regular expressions end in time
    found += [
        Scenario(
            "json-termination-catastrophic-pattern",
            ["run", "p.yaml", "x"],
            {
                "p.yaml": scripted(
                    '<answer>{"code": "' + "a" * 40 + 'b"}</answer>',
                    '<answer>{"code": "ok"}</answer>',
                    extra=(
                        "termination: {name: json, schema: {type: object, properties: "
                        "{code: {type: string, pattern: '^(a|aa)+$'}}}}\n"
                    ),
                )
            },
            codes=(0, 1),
        ),
    ]
    # 4. unbounded output
    found += [
        Scenario(
            "model-huge-output",
            ["run", "h.yaml", "x", "-o", "limits.max_output_chars=1000"],
            {"h.yaml": scripted("<thinking>" + "x" * 200_000 + "</thinking>", ANSWER)},
            codes=(0, 1),
        ),
    ]
    # 5. transcripts
    found += [
        Scenario(
            "transcript-existing-refused",
            ["run", "a.yaml", "x", "--transcript", "t.jsonl"],
            {"a.yaml": scripted(ANSWER), "t.jsonl": '{"type": "header"}\n'},
            codes=(2,),
        ),
        Scenario(
            "transcript-resume-damaged",
            ["run", "a.yaml", "--resume", "t.jsonl"],
            {"a.yaml": scripted(ANSWER), "t.jsonl": "{not json\n"},
            codes=(2,),
        ),
        Scenario(
            "transcript-resume-deep",
            ["run", "a.yaml", "--resume", "t.jsonl"],
            {"a.yaml": scripted(ANSWER), "t.jsonl": nested(5000) + "\n"},
            codes=(2,),
        ),
        Scenario(
            "transcript-resume-binary",
            ["run", "a.yaml", "--resume", "t.jsonl"],
            {"a.yaml": scripted(ANSWER), "t.jsonl": b"\x00\xff" * 100},
            codes=(2,),
        ),
    ]
    # 7. commands that act on the environment
    for name in ("gent-core", "core", "json", "gent-xml", "x" * 300, "../escape", "a b"):
        found.append(
            Scenario(f"new-plugin-{name[:12]}", ["new-plugin", name, "--kind", "tool"], codes=(2,))
        )
    for args in (
        ["-y", "--", "-r", "req.txt"],
        ["--", "--requirement=req.txt"],
        ["-y", "gent-core"],
        ["-y", "calculator-not-a-dist"],
    ):
        found.append(Scenario(f"uninstall-{'_'.join(args)[:20]}", ["uninstall", *args], codes=(2,)))
    # 8. smaller
    found += [
        Scenario(
            "parse-cut-off-call",
            ["parse", "--format", "xml", "--toolchain", "json", "-"],
            stdin='<action>{"tool": "calculator", "args": {"expression": "1+',
            codes=(0, 1, 2),
            check=lambda o: (
                None if "gent parse" in o.err or o.code == 0 else "no gent parse prefix"
            ),
        ),
        Scenario(
            "natural-two-names",
            ["parse", "--format", "xml", "--toolchain", "natural", "-"],
            stdin='<action><tool_call name="a" name="b">{}</tool_call></action>',
            codes=(0, 1, 2),
        ),
        Scenario(
            "stdin-binary",
            ["parse", "--format", "xml", "-"],
            stdin="\udcff\x00" * 10,
            codes=(0, 1, 2),
        ),
    ]
    found += limits_and_api_scenarios()
    return found


def _alias_bomb() -> str:
    """Nine levels of anchors, each a list of nine aliases of the one before (9**9 values)."""
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for level in range(1, 10):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]")
    return "\n".join(lines) + "\nmodel: *a9\n"


def run(scenario: Scenario) -> tuple[bool, str, float]:
    with tempfile.TemporaryDirectory(prefix="gent-hostile-") as folder:
        root = Path(folder)
        for name, content in scenario.files.items():
            path = root / name
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8", errors="surrogateescape")
        env = {**os.environ, "NO_COLOR": "1", **scenario.env}
        env["GENT_HISTORY"] = str(root / "history.db")
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [*(scenario.program or [GENT]), *scenario.args],
                cwd=root,
                input=(scenario.stdin or "").encode("utf-8", "surrogateescape"),
                capture_output=True,
                timeout=TIMEOUT,
                env=env,
            )
        except subprocess.TimeoutExpired:
            return False, f"did not end within {TIMEOUT:.0f} s", TIMEOUT
        seconds = time.perf_counter() - started
        out = done.stdout.decode("utf-8", "replace")
        err = done.stderr.decode("utf-8", "replace")
        outcome = Outcome(done.returncode, out, err, seconds, root)
        if "Traceback" in out + err:
            return False, "traceback:\n" + err[-600:], seconds
        if done.returncode not in scenario.codes:
            return (
                False,
                f"exit {done.returncode}, expected {scenario.codes}: {err[-300:]}",
                seconds,
            )
        if "pydantic.dev" in err:
            return False, "a pydantic URL reached the user", seconds
        if scenario.check is not None:
            problem = scenario.check(outcome)
            if problem:
                return False, problem, seconds
        return True, f"exit {done.returncode}", seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", default="", help="only the scenarios whose name has this")
    args = parser.parse_args()
    chosen = [s for s in scenarios() if args.k in s.name]
    held = 0
    for scenario in chosen:
        ok, note, seconds = run(scenario)
        held += ok
        print(
            f"{'held  ' if ok else 'FAILED'} {scenario.name:<44} {seconds:6.2f} s  {note}",
            flush=True,
        )
    print(f"\n{held} of {len(chosen)} hostile inputs held")
    sys.exit(0 if held == len(chosen) else 1)


if __name__ == "__main__":
    main()


# ---------------------------------------------------------------------- issue 24, sections 4-6
# Limits that limit, the Python API and the package commands checking what they are given,
# gent mcp-serve's JSON-RPC (its answers read from its output), and issue 26's repeated call.


def python(code: str) -> list[str]:
    """Run ``code`` in the Python running the sweep; it prints what happened."""
    return [sys.executable, "-c", code]


def refused(code: str, *names: str, name: str | None = None) -> Scenario:
    """A Python API call that must raise TypeError/ValueError naming ``names`` (exit 2)."""
    program = (
        "import sys\nfrom gent_core import Agent, Limits\nfrom gent_core.testing import "
        "ScriptedModel\ntry:\n    " + code + "\nexcept (TypeError, ValueError) as error:\n"
        "    print(type(error).__name__, error)\n    sys.exit(2)\nprint('accepted')\n"
    )

    def check(outcome: Outcome) -> str | None:
        missing = [name for name in names if name not in outcome.out]
        return f"the error does not name {missing}: {outcome.out!r}" if missing else None

    label = f"api-{name or code[:40]}"
    return Scenario(label, [], codes=(2,), check=check, program=python(program))


def json_result(check: Callable[[dict[str, Any]], str | None]) -> Callable[[Outcome], str | None]:
    """Read ``--json`` output and apply ``check`` to it."""

    def read(outcome: Outcome) -> str | None:
        try:
            data = json.loads(outcome.out)
        except ValueError as error:
            return f"--json is not JSON: {error}"
        return check(data)

    return read


def _model_calls(data: dict[str, Any]) -> int:
    return sum(1 + len(step.get("repairs") or []) for step in data.get("steps") or [])


def _at_most_calls(limit: int) -> Callable[[dict[str, Any]], str | None]:
    def check(data: dict[str, Any]) -> str | None:
        made = _model_calls(data)
        return None if made <= limit else f"{made} model calls, more than {limit}"

    return check


def _stopped(reason: str, steps: int) -> Callable[[dict[str, Any]], str | None]:
    def check(data: dict[str, Any]) -> str | None:
        found = (data.get("stop_reason"), len(data.get("steps") or []))
        return None if found == (reason, steps) else f"stopped {found}, expected {reason, steps}"

    return check


MCP_INIT = (
    '{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": '
    '"2025-06-18", "capabilities": {}, "clientInfo": {"name": "sweep", "version": "1"}}}\n'
    '{"jsonrpc": "2.0", "method": "notifications/initialized"}\n'
)


def mcp_lines(*lines: str) -> str:
    """Standard input of a ``gent mcp-serve`` session: initialize, then ``lines``."""
    return MCP_INIT + "".join(line + "\n" for line in lines)


def answered(request_id: object, code: int) -> Callable[[Outcome], str | None]:
    """The server's output holds an error answer ``code`` for ``request_id``."""

    def check(outcome: Outcome) -> str | None:
        for line in outcome.out.splitlines():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            error = message.get("error") if isinstance(message, dict) else None
            if message.get("id") == request_id and isinstance(error, dict):
                return None if error.get("code") == code else f"answered {error}"
        return f"no error answer for id {request_id!r}: {outcome.out[-300:]!r}"

    return check


_HUGE_ERROR = """\
import sys
from pathlib import Path
from gent_core import Agent, tool
from gent_core.testing import ScriptedModel

@tool
def explode() -> str:
    '''Fail with a 20 MB message.'''
    raise RuntimeError("x" * 20_000_000)

outputs = ['<action>{"tool": "explode", "args": {}}</action>', "<answer>done</answer>"]
Agent(ScriptedModel(outputs), "xml", "json", tools=[explode]).run_sync("x", transcript="t.jsonl")
size = Path("t.jsonl").stat().st_size
print(size)
sys.exit(0 if size < 1_000_000 else 1)
"""


def limits_and_api_scenarios() -> list[Scenario]:
    """Issue 24, sections 4 and 5 (this helper's part), and issue 26's repeated failing call."""
    broken = json.dumps([{"tool": "calculator", "args": {"expr": "1"}}] * 16)
    failing = json.dumps({"tool": "calculator", "args": {"expression": "1/0"}})
    serve: dict[str, str | bytes] = {"s.yaml": "tools: [calculator]\n"}
    agent = "Agent(ScriptedModel([]), 'xml')"
    found = [
        # 4. every model call counts: a step of 16 broken calls within max_steps 1
        Scenario(
            "budget-repairs-within-max-steps-1",
            ["run", "b.yaml", "x", "--json", "-o", "max_steps=1"],
            {"b.yaml": scripted(*[f"<action>{broken}</action>"] * 40)},
            codes=(1,),
            check=json_result(_at_most_calls(3)),
        ),
        Scenario(
            "budget-max-model-calls-set",
            ["run", "b.yaml", "x", "--json", "-o", "limits.max_model_calls=5"],
            {"b.yaml": scripted(*[f"<action>{broken}</action>"] * 40)},
            codes=(1,),
            check=json_result(_at_most_calls(5)),
        ),
        Scenario(
            "budget-max-model-calls-zero",
            ["run", "b.yaml", "x", "-o", "limits.max_model_calls=0"],
            {"b.yaml": scripted(ANSWER)},
            codes=(2,),
        ),
        # 4. a tool's error is bounded like its output
        Scenario("error-20mb-exception-transcript", [], codes=(0,), program=python(_HUGE_ERROR)),
        # 4. search_text holds each match to the pattern deadline (GENT_PATTERN_TIMEOUT)
        Scenario(
            "search-text-pattern-deadline",
            ["call", "search_text", '{"pattern": "(a|aa)+$", "regex": true}'],
            {"evil.txt": "a" * 40 + "!\n"},
            env={"GENT_PATTERN_TIMEOUT": "0.05"},
            codes=(0,),
            check=contains("took longer than 0.05 s (the deadline of one match"),
        ),
        # 5. the Python API names what it refuses
        refused("Limits(max_steps=0)", "ValueError", "max_steps"),
        refused("Limits(max_steps=-5)", "ValueError", "max_steps"),
        refused("Limits(tool_timeout=-1)", "ValueError", "tool_timeout"),
        refused("Limits(max_calls_per_action=0)", "ValueError", "max_calls_per_action"),
        refused('Limits(max_steps="3")', "TypeError", "max_steps"),
        refused("Limits(model_timeout=float('nan'))", "ValueError", "model_timeout"),
        refused("Limits(max_repairs=True)", "TypeError", "max_repairs"),
        refused("Limits().max_steps = 0", "ValueError", "max_steps"),
        refused(f"{agent}.run_sync(None)", "TypeError", "task", name="run-sync-none"),
        refused(f"{agent}.run_sync(b'x')", "TypeError", "task", name="run-sync-bytes"),
        refused(
            f"{agent}.run_sync('t', history=[1, 2])",
            "TypeError",
            "history[0]",
            name="run-sync-history-ints",
        ),
        refused(
            f"{agent}.run_sync('t', history='abc')",
            "TypeError",
            "history",
            name="run-sync-history-str",
        ),
        refused(
            f"{agent}.run_sync('t', on_event=3)",
            "TypeError",
            "on_event",
            name="run-sync-on-event-int",
        ),
        # 5. the package commands (no -y, and 'n' to pip's question: safe on any build)
        *(
            Scenario(
                f"uninstall-needed-{name}",
                ["uninstall", name],
                stdin="n\n",
                codes=(2,),
                check=contains(f"refusing to uninstall {name.lower()}", where="err"),
            )
            for name in ("pluggy", "pip", "pydantic-core", "PyYAML")
        ),
        Scenario(
            "install-target-option",
            ["install", "--", "--target=elsewhere", "./missing-package"],
            codes=(2,),
            check=contains("looks like an option", where="err"),
        ),
        Scenario(
            "install-requirements-file",
            ["install", "--", "-r", "req.txt"],
            {"req.txt": "./missing-package\n"},
            codes=(2,),
            check=contains("looks like an option", where="err"),
        ),
        # 5. gent mcp-serve answers what the SDK would drop, and reads JSON strictly
        Scenario(
            "mcp-serve-object-id",
            ["mcp-serve", "s.yaml"],
            serve,
            stdin=mcp_lines('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}'),
            codes=(0,),
            check=answered(None, -32600),
        ),
        Scenario(
            "mcp-serve-list-id",
            ["mcp-serve", "s.yaml"],
            serve,
            stdin=mcp_lines('{"jsonrpc": "2.0", "id": [7], "method": "ping"}'),
            codes=(0,),
            check=answered(None, -32600),
        ),
        *(
            Scenario(
                f"mcp-serve-{constant}-argument",
                ["mcp-serve", "s.yaml"],
                serve,
                stdin=mcp_lines(
                    '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": '
                    f'"calculator", "arguments": {{"expression": {constant}}}}}}}'
                ),
                codes=(0,),
                check=answered(9, -32602),
            )
            for constant in ("NaN", "Infinity", "-Infinity")
        ),
        # issue 26: the same failing call stops the run at its third failure
        Scenario(
            "repeated-failing-call",
            ["run", "r.yaml", "x", "--json"],
            {"r.yaml": scripted(*[f"<action>{failing}</action>"] * 10)},
            codes=(1,),
            check=json_result(_stopped("repeated_failure", 3)),
        ),
        Scenario(
            "repeated-failing-call-limit-set",
            ["run", "r.yaml", "x", "--json", "-o", "limits.max_repeated_failures=2"],
            {"r.yaml": scripted(*[f"<action>{failing}</action>"] * 10)},
            codes=(1,),
            check=json_result(_stopped("repeated_failure", 2)),
        ),
    ]
    return found

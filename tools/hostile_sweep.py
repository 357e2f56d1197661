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
    found += history_scenarios()
    return found


# 9. the run history (issue 24): arguments bound to SQLite, damaged rows --------------------

RUN_ID = "01JAAAAAAAAAAAAAAAAAAAAAAA"
UNDECODABLE = "\udcff"  # the byte 0xff in an argument, as Python decodes it


def history_database(*damage: str) -> bytes:
    """A history database holding one interrupted run (:data:`RUN_ID`: a header and one
    step, no end), after the SQL statements ``damage``; its bytes.
    """
    import sqlite3

    from gent_core._history.store import HistoryStore

    with tempfile.TemporaryDirectory(prefix="gent-hostile-db-") as folder:
        path = Path(folder) / "logs.db"
        with HistoryStore(path) as store:
            store.start_run(task=f"price {UNDECODABLE} list", config_name="built-in", run_id=RUN_ID)
            store.add_record(RUN_ID, {"type": "run", "version": 1, "task": "price list"})
            store.add_record(RUN_ID, {"type": "step", "index": 1, "output": "x", "outcome": "none"})
        db = sqlite3.connect(path)
        with db:
            for statement in damage:
                db.execute(statement)
        db.close()  # the last connection: the write-ahead log is folded into the file
        return path.read_bytes()


def history_scenarios() -> list[Scenario]:
    home = {"GENT_HOME": "."}
    clean = history_database()
    found = [
        Scenario(
            f"history-{name}",
            args,
            {"logs.db": clean},
            codes=codes,
            env=home,
        )
        for name, args, codes in (
            ("query-undecodable", ["logs", "-q", UNDECODABLE], (0,)),
            ("query-undecodable-json", ["logs", "-q", f"a {UNDECODABLE}b", "--json"], (0,)),
            ("show-undecodable", ["logs", "show", UNDECODABLE], (2,)),
            ("show-undecodable-long", ["logs", "show", UNDECODABLE * 300], (2,)),
            ("config-undecodable", ["logs", "--config", UNDECODABLE], (0,)),
            ("count-past-int64", ["logs", "-n", "9223372036854775808"], (2,)),
            ("count-huge", ["logs", "-n", "9" * 5000], (2,)),
            ("count-negative", ["logs", "--count=-3"], (2,)),
            ("resume-undecodable-id", ["run", "--resume", "01J" + UNDECODABLE], (2,)),
        )
    ]
    deep = "[" * 100_000 + "]" * 100_000
    damaged = {
        "record-nested-100000": "UPDATE records SET data = "
        + f'\'{{"type": "step", "output": {deep}}}\' WHERE seq = 2',
        "record-not-json": "UPDATE records SET data = 'abc' WHERE seq = 2",
        "record-blob": "UPDATE records SET data = x'00ff' WHERE seq = 2",
        "record-not-utf8": "UPDATE records SET data = CAST(x'7bff7d' AS TEXT) WHERE seq = 2",
        "record-an-array": "UPDATE records SET data = '[1, 2]' WHERE seq = 1",
        "steps-text": "UPDATE runs SET steps = 'abc'",
        "seconds-text": "UPDATE runs SET seconds = 'slow'",
        "task-blob": "UPDATE runs SET task = x'00'",
        "task-not-utf8": "UPDATE runs SET task = CAST(x'ff' AS TEXT)",
        "tokens-real": "UPDATE runs SET input_tokens = 2.5",
        "header-config-a-list": "UPDATE records SET data = "
        + '\'{"type": "run", "version": 1, "task": "t", "config": [1, 2]}\' WHERE seq = 1',
        "header-config-deep": "UPDATE records SET data = "
        + f'\'{{"type": "run", "task": "t", "config": {{"model": {"[" * 150 + "]" * 150}}}}}\' '
        + "WHERE seq = 1",
        "header-version-huge": "UPDATE records SET data = "
        + f'\'{{"type": "run", "version": {"9" * 400}, "task": "t"}}\' WHERE seq = 1',
        "header-task-a-number": "UPDATE records SET data = "
        + '\'{"type": "run", "version": 1, "task": 5}\' WHERE seq = 1',
        "step-calls-a-number": "UPDATE records SET data = "
        + '\'{"type": "step", "index": 1, "output": "x", "calls": 5}\' WHERE seq = 2',
        "step-index-huge": "UPDATE records SET data = "
        + f'\'{{"type": "step", "index": {"9" * 30}, "output": "x"}}\' WHERE seq = 2',
        "id-lowercase-path": "UPDATE runs SET id = '../../x', conversation_id = '../../x'",
    }
    for name, statement in damaged.items():
        database = {"logs.db": history_database(statement)}
        found += [
            Scenario(f"history-{name}-list", ["logs"], database, codes=(0, 2), env=home),
            Scenario(f"history-{name}-show", ["logs", "show", RUN_ID], database, env=home),
            Scenario(f"history-{name}-continue", ["run", "-c", "more"], database, env=home),
            Scenario(f"history-{name}-resume", ["run", "--resume", RUN_ID], database, env=home),
        ]
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
        env.setdefault("GENT_HOME", str(root / "gent-home"))  # the run history stays here
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [GENT, *scenario.args],
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

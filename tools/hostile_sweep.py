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
import contextlib
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
    setup: Callable[[Path, dict[str, str]], None] | None = None
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
    found += cache_probe_size_scenarios()
    found += _stop_signals_replies_receivers()  # issue 24: sections 1 and 4
    found += history_scenarios()
    found += limits_and_api_scenarios()
    return found


# --------------------------------------------------------------------------- issue 24 §2-3
# The discovery cache (planted entries, links, FIFOs, foreign directories), path probes
# (300-character names, a file on the way), huge size variables, unbounded declaration
# files and bad gent eval options.

LONG = "x" * 300
ZEN = "Beautiful is better than ugly"


def _cached(root: Path, env: dict[str, str]) -> list[Path]:
    """Point the cache at ``root/cache``, fill it (``gent --help``, ``gent plugins``), and
    return its files.
    """
    env["XDG_CACHE_HOME"] = str(root / "cache")
    env.pop("GENT_NO_CACHE", None)
    for args in (["--help"], ["plugins"]):
        subprocess.run([GENT, *args], cwd=root, env=env, capture_output=True, timeout=TIMEOUT)
    return sorted((root / "cache" / "gent").glob("*.json"))


def _plant_module(root: Path, env: dict[str, str]) -> None:
    """The review's instance: ``"module": "this"`` with one missing path as the fingerprint."""
    for path in _cached(root, env):
        stored = json.loads(path.read_text())
        if path.name.startswith("commands"):
            for entry in stored["value"]:
                if entry[0] == "eval":
                    entry[2] = "this"
            stored["value"].append(["ghost", "ghostly", "this", "only in the cache"])
        stored["files"] = stored["modules"] = [[str(root / "missing.py"), None, None]]
        path.write_text(json.dumps(stored))


def _replace_cache(make: Callable[[Path], None]) -> Callable[[Path, dict[str, str]], None]:
    def setup(root: Path, env: dict[str, str]) -> None:
        for path in _cached(root, env):
            path.unlink()
            make(path)

    return setup


def _foreign_dir(root: Path, env: dict[str, str]) -> None:
    _plant_module(root, env)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.chown(root / "cache" / "gent", 4242, -1)
    else:
        os.chmod(root / "cache" / "gent", 0o777)


def _world_writable(root: Path, env: dict[str, str]) -> None:
    _plant_module(root, env)
    os.chmod(root / "cache" / "gent", 0o777)


def _victim_link(path: Path) -> None:
    path.symlink_to(path.parent.parent.parent / "victim.txt")


def _victim_tmp_links(root: Path, env: dict[str, str]) -> None:
    """The review's instance: ``<file>.<pid>.tmp`` links to a victim, for the next process
    ids (as an attacker would plant them), and no cache file, so the next command writes.
    """
    last = int(Path("/proc/sys/kernel/ns_last_pid").read_text())
    for path in _cached(root, env):
        path.unlink()
        for pid in range(last + 1, last + 400):
            Path(f"{path}.{pid}.tmp").symlink_to(root / "victim.txt")


def _no_zen(outcome: Outcome) -> str | None:
    return f"{ZEN!r} printed: a planted module was imported" if ZEN in outcome.out else None


def _victim_intact(outcome: Outcome) -> str | None:
    victim = outcome.folder / "victim.txt"
    return None if victim.read_text() == "precious" else "the victim file was written through"


def _says(text: str) -> Callable[[Outcome], str | None]:
    return contains(text, where="err")


def cache_probe_size_scenarios() -> list[Scenario]:
    """Issue 24 §2 and the path, size, declaration and eval-option parts of §3."""
    config: dict[str, str | bytes] = {"a.yaml": scripted(ANSWER)}
    suite: dict[str, str | bytes] = {**config, "s.yaml": "tasks: [{id: t, text: hi}]\n"}
    found = [
        Scenario("cache-planted-this", ["eval", "--help"], setup=_plant_module, check=_no_zen),
        Scenario(
            "cache-planted-ghost",
            ["--help"],
            setup=_plant_module,
            codes=(0,),
            check=lambda o: "planted command listed" if "ghost" in o.out else None,
        ),
        Scenario("cache-foreign-dir", ["eval", "--help"], setup=_foreign_dir, check=_no_zen),
        Scenario("cache-world-writable", ["eval", "--help"], setup=_world_writable, check=_no_zen),
        Scenario("cache-fifo", ["--help"], setup=_replace_cache(os.mkfifo), codes=(0,)),
        Scenario(
            "cache-dev-zero",
            ["plugins"],
            setup=_replace_cache(lambda path: path.symlink_to("/dev/zero")),
            codes=(0,),
        ),
        Scenario(
            "cache-tmp-link-to-victim",
            ["--help"],
            {"victim.txt": "precious"},
            setup=_victim_tmp_links,
            codes=(0,),
            check=_victim_intact,
        ),
        Scenario(
            "cache-link-to-victim",
            ["--help"],
            {"victim.txt": "precious"},
            setup=_replace_cache(_victim_link),
            codes=(0,),
            check=_victim_intact,
        ),
        # path probes
        Scenario("probe-cwd-long", ["run", "a.yaml", "--cwd", LONG, "hi"], config, codes=(2,)),
        Scenario(
            "probe-cwd-through-file", ["run", "a.yaml", "--cwd", "a.yaml/sub", "hi"], config, (2,)
        ),
        Scenario(
            "probe-working-directory-long",
            ["run", "w.yaml", "hi"],
            {"w.yaml": scripted(ANSWER, extra=f"working_directory: {LONG}\n")},
            codes=(2,),
        ),
        Scenario("probe-resume-long", ["run", "a.yaml", "--resume", LONG + ".jsonl"], config, (2,)),
        Scenario("probe-single-yaml-long", ["run", LONG + ".yaml"], codes=(2,)),
        Scenario(
            "probe-single-yaml-long-dirs", ["run", "/".join([LONG] * 20) + ".yaml"], codes=(2,)
        ),
        Scenario(
            "probe-eval-30-categories",
            ["eval", "bfcl:" + ",".join(f"no_such_category_{n}" for n in range(30))],
            codes=(2,),
        ),
        Scenario("probe-call-cwd-long", ["call", "calculator", "{}", "--cwd", LONG], codes=(2,)),
        # unbounded declaration files
        Scenario(
            "declare-dev-zero",
            ["run", "d.yaml", "hi"],
            {
                "d.yaml": scripted(ANSWER).replace(
                    "tools: [calculator]", "tools: [{declare: {file: /dev/zero}}]"
                )
            },
            codes=(2,),
        ),
        Scenario(
            "declare-nan-json",
            ["run", "d.yaml", "hi"],
            {
                "d.yaml": scripted(ANSWER).replace(
                    "tools: [calculator]", "tools: [{declare: {file: t.json}}]"
                ),
                "t.json": '{"name": "t", "parameters": {"type": "object", "default": NaN}}',
            },
            codes=(2,),
        ),
        # bad gent eval options and suites
        Scenario(
            "eval-repeat-huge",
            ["eval", "s.yaml", "a.yaml", "--repeat", "9" * 20],
            suite,
            codes=(2,),
        ),
        Scenario(
            "eval-repeat-5000-digits",
            ["eval", "s.yaml", "a.yaml", "--repeat", "9" * 5000],
            suite,
            codes=(2,),
        ),
        Scenario(
            "eval-timeout-negative",
            ["eval", "s.yaml", "a.yaml", "--timeout", "-1"],
            suite,
            codes=(2,),
        ),
        Scenario(
            "eval-timeout-nan", ["eval", "s.yaml", "a.yaml", "--timeout", "nan"], suite, codes=(2,)
        ),
        Scenario(
            "eval-concurrency-huge",
            ["eval", "s.yaml", "a.yaml", "--concurrency", "1e9"],
            suite,
            codes=(2,),
        ),
        Scenario(
            "eval-task-id-long",
            ["eval", "s.yaml"],
            {"s.yaml": f"tasks:\n  - id: {LONG}\n    text: hi\n"},
            codes=(2,),
            check=_says("at most 100 characters"),
        ),
        Scenario(
            "eval-tasks-empty",
            ["eval", "s.yaml"],
            {"s.yaml": "tasks: []\n"},
            codes=(2,),
            check=_says("must not be empty"),
        ),
    ]
    # huge size variables: config, task, transcript, suite (and a 5,000-digit variant)
    for value in ("99999999999999999999G", "9" * 5000, "65G"):
        short = value[:6]
        found += [
            Scenario(
                f"size-config-{short}",
                ["run", "a.yaml", "hi"],
                config,
                env={"GENT_MAX_CONFIG_SIZE": value},
                codes=(2,),
                check=_says("GENT_MAX_CONFIG_SIZE"),
            ),
            Scenario(
                f"size-task-{short}",
                ["run", "a.yaml", "-"],
                config,
                env={"GENT_MAX_TASK_SIZE": value},
                stdin="hi",
                codes=(2,),
                check=_says("GENT_MAX_TASK_SIZE"),
            ),
            Scenario(
                f"size-transcript-{short}",
                ["run", "a.yaml", "--resume", "t.jsonl"],
                {**config, "t.jsonl": "{}\n"},
                env={"GENT_MAX_TRANSCRIPT_SIZE": value},
                codes=(2,),
                check=_says("GENT_MAX_TRANSCRIPT_SIZE"),
            ),
            Scenario(
                f"size-suite-{short}",
                ["eval", "s.yaml"],
                {"s.yaml": "tasks: [{text: hi}]\n"},
                env={"GENT_MAX_SUITE_SIZE": value},
                codes=(2,),
                check=_says("GENT_MAX_SUITE_SIZE"),
            ),
        ]
    return found


# 9. the run history (issue 24): arguments bound to SQLite, damaged rows --------------------

RUN_ID = "01JAAAAAAAAAAAAAAAAAAAAAAA"
UNDECODABLE = "\udcff"  # the byte 0xff in an argument, as Python decodes it


def history_database(*damage: str) -> bytes:
    """A history database holding one interrupted run (:data:`RUN_ID`: a header and one
    step, no end), after the SQL statements ``damage``; its bytes.
    """
    import sqlite3

    from gent_history.store import HistoryStore

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
        database: dict[str, str | bytes] = {"logs.db": history_database(statement)}
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


# -- Issue 24: signals other than Ctrl-C, unreadable MCP replies, a receiver that is down ----

RAW_MCP_SERVER = r"""
import json, os, signal, subprocess, sys, time

LISTED = sys.argv[1:]
DEEP = '{"a":' * 5000 + '1' + '}' * 5000


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def reply(rid, result):
    send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}))


for line in sys.stdin:
    message = json.loads(line)
    rid, method = message.get("id"), message.get("method")
    if rid is None:
        continue
    if method == "initialize":
        reply(rid, {"protocolVersion": message["params"]["protocolVersion"],
                    "capabilities": {"tools": {}}, "serverInfo": {"name": "raw", "version": "1"}})
    elif method == "tools/list":
        tools = [{"name": name, "inputSchema": {"type": "object"}} for name in LISTED]
        reply(rid, {"tools": tools})
    elif method == "tools/call":
        name = message["params"]["name"]
        arguments = message["params"].get("arguments") or {}
        if name == "busy":
            time.sleep(3600)
        elif name == "stubborn":  # ignores SIGTERM, and so does its worker
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            subprocess.Popen(["sleep", "300"])
            time.sleep(3600)
        elif name == "spawn_and_stop":  # a worker, then the signal to gent (our parent)
            subprocess.Popen(["sleep", "300"])
            time.sleep(2)
            os.kill(os.getppid(), int(arguments.get("signal", 15)))
            time.sleep(3600)
        elif name == "surrogate":
            send('{"jsonrpc": "2.0", "id": %s, "result": {"content": [{"type": "text", '
                 '"text": "\\ud800"}]}}' % json.dumps(rid))
        elif name == "deep":
            send('{"jsonrpc": "2.0", "id": %s, "result": {"content": [], '
                 '"structuredContent": %s}}' % (json.dumps(rid), DEEP))
"""

_SILENT: list[object] = []  # a socket that accepts connections and never answers


def _silent_port() -> int:
    import socket

    if not _SILENT:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        _SILENT.append(listener)
    return int(_SILENT[0].getsockname()[1])  # type: ignore[attr-defined]


def _closed_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _marked(marker: str) -> list[int]:
    """The processes whose environment holds ``GENT_SWEEP_MARK=marker``."""
    needle = f"GENT_SWEEP_MARK={marker}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if needle in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                    found.append(int(entry))
            except OSError:
                continue
    return found


def _nothing_left(marker: str) -> Callable[[Outcome], str | None]:
    def check(outcome: Outcome) -> str | None:
        deadline = time.monotonic() + 5
        while (left := _marked(marker)) and time.monotonic() < deadline:
            time.sleep(0.05)
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
        if left:
            return f"{len(left)} process(es) left running: {left}"
        return None if "interrupted" in outcome.err else "no 'interrupted' line"

    return check


def _mcp_config(outputs: list[str], servers: dict[str, list[str]], marker: str) -> str:
    entries = "".join(
        f"  - mcp: {{name: {name}, command: [python, server.py, {', '.join(tools)}], "
        f"env: {{GENT_SWEEP_MARK: {marker}}}}}\n"
        for name, tools in servers.items()
    )
    return (
        "model:\n  name: scripted\n  outputs: "
        + json.dumps(outputs)
        + "\nformat: xml\ntoolchain: json\ntools:\n"
        + entries
    )


def _one_warning(outcome: Outcome) -> str | None:
    lines = [line for line in outcome.err.splitlines() if line.strip()]
    raw = [line for line in lines if "Transient error" in line or "Failed to export" in line]
    if raw:
        return f"the SDK's raw lines reached the terminal: {raw[:2]}"
    warned = [line for line in lines if "gent-otel" in line]
    if len(warned) != 1:
        return f"expected one gent-otel warning, got {len(warned)}: {lines[:4]}"
    return None  # (the exit's bound, 1 s, is measured by hand: the start alone varies more)


def _stop_signals_replies_receivers() -> list[Scenario]:
    import uuid

    found = []
    for number, name, busy in ((15, "TERM", "busy"), (1, "HUP", "busy"), (15, "TERM", "stubborn")):
        marker = uuid.uuid4().hex
        calls = json.dumps(
            [
                {"tool": busy, "args": {}},
                {"tool": "spawn_and_stop", "args": {"signal": number}},
            ]
        )
        config = _mcp_config(
            [f"<action>{calls}</action>", "<answer>never</answer>"],
            {"slow": [busy], "spawner": ["spawn_and_stop"]},
            marker,
        )
        found.append(
            Scenario(
                f"signal-{name}-during-mcp-calls-{busy}",
                ["run", "a.yaml", "go"],
                {"a.yaml": config, "server.py": RAW_MCP_SERVER},
                codes=(128 + number,),
                check=_nothing_left(marker),
            )
        )
    for tool in ("surrogate", "deep"):
        config = _mcp_config(
            [f'<action>{{"tool": "{tool}", "args": {{}}}}</action>', "<answer>done</answer>"],
            {"raw": [tool]},
            uuid.uuid4().hex,
        )
        found.append(
            Scenario(
                f"mcp-unreadable-reply-{tool}",
                ["run", "a.yaml", "go", "--json"],
                {"a.yaml": config, "server.py": RAW_MCP_SERVER},
                codes=(0,),
                check=contains("could not be read"),
            )
        )
    for kind, port in (("closed", _closed_port), ("silent", _silent_port)):
        found.append(
            Scenario(
                f"otel-receiver-{kind}",
                ["run", "a.yaml", TASK, "-q"],
                {"a.yaml": scripted(ANSWER)},
                codes=(0,),
                env={"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port()}"},
                check=_one_warning,
            )
        )
    return found


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
        if scenario.setup is not None:
            scenario.setup(root, env)
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


if __name__ == "__main__":
    main()

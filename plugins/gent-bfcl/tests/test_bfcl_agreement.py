"""gent's BFCL code agrees with BFCL's own, on every task of every supported category.

``bfcl-eval`` (pinned below) is installed *without its dependencies* into a scratch
virtualenv (kept in gent's cache, or the one ``GENT_BFCL_VENV`` names), and its code is run
there by ``bfcl_oracle.py`` (its docstring says exactly what is stubbed and why that does not
touch judging). The tasks are read by gent's reader from that environment's installed data.

For every task, the candidates of ``bfcl_candidates.py`` (the reference answer, and mutations:
dropped, changed and retyped arguments, another function, an extra or missing call, the
empty list...) are judged by gent's checker and by BFCL's ``ast_checker``; raw outputs (each
candidate written out, and texts that exercise the decoder) go through gent's decoder and
checker and through BFCL's decoder and checker; and the prompt gent builds is compared with
the one BFCL builds. Counts are printed (``pytest -s``).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import venv
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from bfcl_candidates import candidates, texts
from gent_bfcl import (
    CATEGORIES,
    BFCLTask,
    FailureKind,
    bfcl_messages,
    check,
    decode_calls,
    from_gent_name,
    installed_data_dir,
    load_category,
    reference_calls,
    to_tool_spec,
)
from gent_bfcl.pycalls import UNPACKED
from gent_bfcl.runner import judge_output
from test_bfcl_checker import CASES, RAW_CASES, fixture_tasks
from test_bfcl_pycalls import DECODED, UNREADABLE

from gent_core.tools import SchemaValidator

pytestmark = pytest.mark.slow

BFCL_VERSION = "2026.3.23"
ORACLE = Path(__file__).with_name("bfcl_oracle.py")

# BFCL's error types, and the failure kinds gent reports for them.
KINDS: dict[str, set[FailureKind]] = {
    "wrong_count": {FailureKind.NO_CALL, FailureKind.WRONG_COUNT},
    "wrong_func_name": {FailureKind.WRONG_FUNCTION},
    "missing_required": {FailureKind.MISSING_ARGUMENT},
    "missing_optional": {FailureKind.MISSING_ARGUMENT},
    "unexpected_param": {FailureKind.UNEXPECTED_ARGUMENT},
    "type_error": {FailureKind.WRONG_TYPE},
    "value_error": {FailureKind.WRONG_VALUE},
    "dict_checker": {FailureKind.WRONG_VALUE},
    "list_dict_checker": {FailureKind.WRONG_VALUE},
    "decoder_wrong_output_format": {FailureKind.MALFORMED},
    "decoder_failed": {FailureKind.UNPARSABLE},
    "decoder_success": {FailureKind.CALL_MADE},
}


def _family(error_type: str) -> str | None:
    """The key of :data:`KINDS` an error type of BFCL's belongs to (``None``: any kind)."""
    if "cannot_find_match" in error_type:
        return None
    head, _, tail = error_type.partition(":")
    return tail if tail in KINDS else head


def _python(env: Path) -> Path:
    return env / ("Scripts" if os.name == "nt" else "bin") / "python"


@pytest.fixture(scope="module")
def bfcl_env() -> tuple[Path, Path]:
    """The scratch environment's python and its installed bfcl-eval data folder."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gent"
    env = Path(os.environ.get("GENT_BFCL_VENV") or cache / f"bfcl-eval-{BFCL_VERSION}")
    python = _python(env)
    marker = env / ".gent-bfcl-ready"
    if not marker.exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(env)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--no-deps", f"bfcl-eval=={BFCL_VERSION}"],
            check=True,
            timeout=900,
        )
        marker.write_text(BFCL_VERSION)
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return python, installed_data_dir([site])


@pytest.fixture(scope="module")
def tasks(bfcl_env: tuple[Path, Path]) -> list[BFCLTask]:
    return [task for category in CATEGORIES for task in load_category(category, bfcl_env[1])]


def _table_cases() -> list[tuple[BFCLTask, str, Any]]:
    """The unit tests' tables (test_bfcl_checker.py), labelled with the expected validity."""
    fixtures = fixture_tasks()
    rows = [(fixtures[task_id], f"table:{valid}", calls) for task_id, calls, valid, _ in CASES]
    for name, category, functions, calls, answer, valid, _ in RAW_CASES:
        task = BFCLTask(name, category, [[{"role": "user", "content": name}]], functions, answer)
        rows.append((task, f"table:{valid}", calls))
    return rows


def _decoder_cases() -> list[tuple[BFCLTask, str, Any]]:
    """The decoder unit tests' texts (test_bfcl_pycalls.py), for a one-function task."""
    functions = [{"name": "f", "parameters": {"type": "dict", "properties": {}, "required": []}}]
    task = BFCLTask("decoder", "simple_python", [[]], functions, [{"f": {}}])
    texts = [text for text, _ in DECODED] + UNREADABLE
    return [(task, f"decoder:{number}", text) for number, text in enumerate(texts)]


@pytest.fixture(scope="module")
def cases(tasks: list[BFCLTask]) -> dict[str, list[tuple[BFCLTask, str, Any]]]:
    """Every (task, label, candidate) of each job."""
    return {
        "check": [(task, label, calls) for task in tasks for label, calls in candidates(task)]
        + _table_cases(),
        "pipeline": [(task, label, text) for task in tasks for label, text in texts(task)]
        + _decoder_cases(),
        "prompt": [(task, "prompt", None) for task in tasks],
    }


@pytest.fixture(scope="module")
def bfcl(
    bfcl_env: tuple[Path, Path], cases: dict[str, list[tuple[BFCLTask, str, Any]]]
) -> dict[str, list[Any]]:
    """BFCL's answers for every case (one run of the oracle)."""
    jobs = {
        "check": [
            (t.category, t.functions, calls, t.possible_answer) for t, _, calls in cases["check"]
        ],
        "pipeline": [
            (t.category, t.functions, text, t.possible_answer) for t, _, text in cases["pipeline"]
        ],
        "prompt": [(t.id, t.category, t.functions, t.question[0]) for t, _, _ in cases["prompt"]],
    }
    done = subprocess.run(
        [str(bfcl_env[0]), str(ORACLE)],
        input=pickle.dumps(jobs),
        capture_output=True,
        check=False,
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    answers: dict[str, list[Any]] = pickle.loads(done.stdout)
    return answers


def _compare(ours_valid: bool, kind: FailureKind | None, theirs: Any) -> tuple[str, str | None]:
    """``("agree" | "disagree" | "bfcl_raised", kind_note)``."""
    if theirs[0] == "raised":
        return "bfcl_raised", None
    _, valid, error_type = theirs
    if valid != ours_valid:
        return "disagree", None
    if valid:
        return "agree", None
    family = _family(error_type)
    if family is None or (family in KINDS and kind in KINDS[family]):
        return "agree", None
    return "agree", f"{error_type} -> {kind}"


def _report(title: str, counts: Counter[str], notes: Counter[str], examples: list[str]) -> None:
    print(f"\n{title}: {dict(counts)}", file=sys.stderr)
    for note, number in notes.most_common(10):
        print(f"  kind differs {number}x: {note}", file=sys.stderr)
    for example in examples[:15]:
        print(f"  {example}", file=sys.stderr)


def test_checker_agrees_with_bfcl_on_every_task(
    cases: dict[str, list[tuple[BFCLTask, str, Any]]], bfcl: dict[str, list[Any]]
) -> None:
    counts: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    per_label: Counter[str] = Counter()
    examples: list[str] = []
    for (task, label, calls), theirs in zip(cases["check"], bfcl["check"], strict=True):
        verdict = check(task.category, task.functions, calls, task.possible_answer)
        outcome, note = _compare(verdict.valid, verdict.kind, theirs)
        counts[outcome] += 1
        counts[f"valid={verdict.valid}"] += 1
        per_label[f"{label.partition(':')[0]}:{'valid' if verdict.valid else 'invalid'}"] += 1
        if note:
            notes[note] += 1
        if outcome != "agree":
            examples.append(f"{outcome} {task.id} {label}: ours {verdict}, BFCL {theirs}")
    _report("checker", counts, notes, examples)
    print(f"  by candidate: {dict(sorted(per_label.items()))}", file=sys.stderr)
    assert counts["disagree"] == 0, examples[:15]
    assert counts["bfcl_raised"] == 0, examples[:15]
    assert not notes, notes.most_common(10)
    # The candidates are not all trivially valid or invalid.
    assert counts["valid=True"] > 5000 and counts["valid=False"] > 20000


def test_unit_test_tables_say_what_bfcl_says(
    cases: dict[str, list[tuple[BFCLTask, str, Any]]], bfcl: dict[str, list[Any]]
) -> None:
    rows = [
        (task.id, label, theirs)
        for (task, label, _), theirs in zip(cases["check"], bfcl["check"], strict=True)
        if label.startswith("table:")
    ]
    assert len(rows) == len(CASES) + len(RAW_CASES)
    wrong = [row for row in rows if row[2][0] != "ok" or str(row[2][1]) != row[1][6:]]
    assert not wrong


def test_reference_answers_are_valid_but_for_dataset_quirks(
    cases: dict[str, list[tuple[BFCLTask, str, Any]]], bfcl: dict[str, list[Any]]
) -> None:
    """The first possible answer passes, except where BFCL's own checker rejects it too."""
    rejected = [
        (task.id, theirs)
        for (task, label, _), theirs in zip(cases["check"], bfcl["check"], strict=True)
        if label == "reference" and not theirs[1]
    ]
    references = sum(label == "reference" for _, label, _ in cases["check"])
    print(
        f"\nreference answers: {references}, rejected by BFCL too: {len(rejected)}", file=sys.stderr
    )
    for task_id, theirs in rejected:
        print(f"  {task_id}: {theirs[2]}", file=sys.stderr)
    assert len(rejected) < references / 100


def _unpacked_as_gent_reads_it(calls: Any) -> Any:
    """BFCL's decoded calls with a ``**x`` argument named as gent names it (BFCL: ``None``)."""
    if not isinstance(calls, list):
        return calls
    return [
        {name: {UNPACKED if key is None else key: value for key, value in args.items()}}
        for call in calls
        for name, args in call.items()
    ]


def test_decoder_and_checker_agree_with_bfcl_on_raw_outputs(
    cases: dict[str, list[tuple[BFCLTask, str, Any]]], bfcl: dict[str, list[Any]]
) -> None:
    counts: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    examples: list[str] = []
    for (task, label, text), (theirs, their_calls) in zip(
        cases["pipeline"], bfcl["pipeline"], strict=True
    ):
        calls, verdict = judge_output(task, text)
        outcome, note = _compare(verdict.valid, verdict.kind, theirs)
        counts[outcome] += 1
        if calls != _unpacked_as_gent_reads_it(their_calls):
            counts["decoded_differently"] += 1
            examples.append(f"decoded {task.id} {label} {text[:80]!r}: {calls} vs {their_calls}")
        if note:
            notes[note] += 1
        if outcome != "agree":
            examples.append(f"{outcome} {task.id} {label} {text[:80]!r}: {verdict} vs {theirs}")
    _report("raw outputs", counts, notes, examples)
    assert counts["disagree"] == 0 and counts["decoded_differently"] == 0, examples[:15]
    assert counts["bfcl_raised"] == 0, examples[:15]
    assert not notes, notes.most_common(10)


def test_prompt_is_bfcls_on_every_task(
    cases: dict[str, list[tuple[BFCLTask, str, Any]]], bfcl: dict[str, list[Any]]
) -> None:
    differing = [
        task.id
        for (task, _, _), theirs in zip(cases["prompt"], bfcl["prompt"], strict=True)
        if bfcl_messages(task.functions, task.question[0]) != theirs
    ]
    print(f"\nprompts: {len(cases['prompt'])}, differing: {len(differing)}", file=sys.stderr)
    assert not differing, differing[:10]


def test_every_function_becomes_a_gent_tool_schema(tasks: list[BFCLTask]) -> None:
    """Every function doc converts, its schema is accepted by gent's validator, and its name
    maps to a gent tool name and back. The reference answers that gent's validator refuses
    are counted (for the later ``gent eval``), with why."""
    functions = 0
    refused: Counter[str] = Counter()
    for task in tasks:
        specs = {}
        for function in task.functions:
            spec = to_tool_spec(function)
            assert from_gent_name(spec.name) == function["name"]
            SchemaValidator(spec.parameters)
            specs[function["name"]] = spec
            functions += 1
        for call in reference_calls(task.possible_answer or [], task.functions):
            for name, arguments in call.items():
                _, errors = SchemaValidator(specs[name].parameters).validate(arguments)
                for error in errors:
                    refused[error.message.split(",")[0]] += 1
    print(f"\nfunction docs converted: {functions}", file=sys.stderr)
    print(f"reference arguments gent's validator refuses: {sum(refused.values())}", file=sys.stderr)
    for message, number in refused.most_common(10):
        print(f"  {number}x {message}", file=sys.stderr)
    assert functions > 8000


def test_decoder_reads_what_write_calls_writes(tasks: list[BFCLTask]) -> None:
    from gent_bfcl import write_calls

    for task in tasks:
        if task.possible_answer:
            calls = reference_calls(task.possible_answer, task.functions)
            assert decode_calls(write_calls(calls)) == calls, task.id

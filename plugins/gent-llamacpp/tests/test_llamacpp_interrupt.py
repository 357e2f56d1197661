"""Ctrl-C on ``gent run`` with the real local model, through each binding: a real SIGINT while
the model evaluates a long prompt, or while it writes tokens, ends the run with exit status 130
and one clean "interrupted" line, no traceback.

How fast it stops is not asserted (the timeout is far from the expected value); that the
cancellation stops the work is proven by counting in test_llamacpp_model.py.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from gent_llamacpp.engine import BINDINGS

pytestmark = [pytest.mark.slow, pytest.mark.model]

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "calculator.yaml"
GENT = Path(sys.executable).with_name("gent")

# About 2,500 tokens: evaluating the prompt takes a while, so a signal sent when the step
# starts arrives during prompt evaluation.
LONG_TASK = "Read these notes, then tell me what 17 * 23 is. " + " ".join(
    f"Note {number}: the {colour} box weighs {number * 7 % 13} kilograms."
    for number, colour in zip(range(150), itertools.cycle(["red", "blue", "green"]))
)


@pytest.mark.parametrize("binding", list(BINDINGS))
@pytest.mark.parametrize(
    ("phase", "marker"),
    [("prompt", "--- step 1 ---"), ("tokens", "[thinking]")],
    ids=["during-prompt", "during-tokens"],
)
def test_ctrl_c_stops_the_local_model_cleanly(binding: str, phase: str, marker: str) -> None:
    task = LONG_TASK if phase == "prompt" else "What is 17 * 23? Think it through at length."
    command = [str(GENT), "run", str(EXAMPLE), task, "-o", f"model.binding={binding}"]
    command += ["-o", "model.n_ctx=8192", "--no-color"]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert process.stdout is not None
    seen = []
    for line in process.stdout:  # wait until the model is at work
        seen.append(line)
        if line.startswith(marker):
            break
    else:
        pytest.fail(f"the run ended before {marker!r}:\n{''.join(seen)}{process.communicate()[1]}")
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 130, (out, err)
    assert "gent run: interrupted" in err
    assert "Traceback" not in out + err, err

"""Redaction never rewrites the user's text, on every output path of ``gent`` (issue 17).

For a random credential (1-64 characters, common words among them) written under a credential
key, directly or through ``${ENV}``, and a random task, answer, thinking and tool output run
through the real ``gent`` command (in process) with a scripted model and a tool:

* wherever the configuration is shown (the transcript header, a config error quoting the
  value), the credential is never shown, whatever its length;
* the task and the answer are shown byte for byte: the live view's task line, its streamed
  answer section and answer line, ``-q``, ``--json``, the transcript, ``describe --prompt``;
* free text (the model's output, thinking, tool arguments and results, errors) is shown byte
  for byte, except that a credential of 8 characters or more is masked where it occurs;
* the transcript reads back, and ``--resume`` continues it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gent_core import hookimpl
from gent_core._cli.main import main
from gent_core._config.secrets import MASK, MIN_TEXT_SECRET_LENGTH
from gent_core._serialize import write_json
from gent_core.model import ModelRequest
from gent_core.testing import PluginSandbox, ScriptedModel
from gent_core.tools import BaseTool
from tests.properties.profiles import examples

# Text without what would open a section (<, >), a ${...} expansion ($), a URL password (@),
# a mask (*) or a section label ([, ]); quotes and backslashes are in.
_ALPHABET = st.sampled_from(
    [*"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?'\"()-_/+=%#~|\\éü€한"]
)
WORDS = ["the", "none", "local", "password", "x", "e", "EMPTY", "index", "type", "answer"]
WORDS += ["feedback", "thinking", "scripted", "sk-live-0123456789abcdef", "echo"]


def text(min_size: int = 1, max_size: int = 60) -> st.SearchStrategy[str]:
    """Text with no whitespace at either end (what a parsed section holds)."""
    return (
        st.text(_ALPHABET, min_size=min_size, max_size=max_size)
        .map(str.strip)
        .filter(lambda value: len(value) >= min_size)
    )


SECRETS = st.one_of(
    st.sampled_from(WORDS), text(1, 64).filter(lambda value: '"' not in value and "\\" not in value)
)


class Echo(BaseTool):
    """Returns its text; fails quoting it when asked. Takes a credential as an option."""

    name = "echo"
    description = "Repeat the text."
    parameters = {  # noqa: RUF012
        "type": "object",
        "properties": {"text": {"type": "string"}, "fail": {"type": "boolean"}},
        "required": ["text"],
    }

    def __init__(self, api_key: str, headers: dict[str, str] | None = None) -> None:
        self.api_key = api_key
        self.headers = headers or {}

    async def run(self, working_directory: Path, text: str, fail: bool = False) -> str:
        if fail:
            raise RuntimeError(f"cannot echo {text}")
        return text


class RenderingModel(ScriptedModel):
    """The scripted model, showing its requests as a chat back end does (JSON messages)."""

    def render_request(self, request: ModelRequest) -> str:
        messages = [{"role": message.role, "content": message.text} for message in request.messages]
        return json.dumps(messages, indent=2, ensure_ascii=False)


class PropertyPlugin:
    @hookimpl
    def gent_register_tools(self) -> Sequence[Any]:
        return [Echo]

    @hookimpl
    def gent_register_models(self) -> Mapping[str, Any]:
        return {"rendering": RenderingModel}


@pytest.fixture(scope="module")
def sandbox() -> PluginSandbox:
    plugins = PluginSandbox()
    plugins.load_installed()
    plugins.register(PropertyPlugin(), "property")
    return plugins


def quoted(value: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is YAML's)."""
    return json.dumps(value)


def action(args: dict[str, Any]) -> str:
    return f"<action>{json.dumps({'tool': 'echo', 'args': args})}</action>"


def config(outputs: list[str], credential: str, append: str, headers: str = "{}") -> str:
    script = "".join(f"    - {quoted(output)}\n" for output in outputs)
    return (
        f"model:\n  name: rendering\n  chunk_size: 3\n  outputs:\n{script}"
        f"tools:\n  - {{name: echo, api_key: {credential}, headers: {headers}}}\n"
        f"prompt: {{append: {quoted(append)}}}\nmax_steps: 6\n"
    )


@contextmanager
def environment(name: str, value: str) -> Iterator[None]:
    with mock.patch.dict(os.environ, {name: value}):
        yield


def run(
    sandbox: PluginSandbox, capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, str, str]:
    capsys.readouterr()
    with sandbox.as_process_manager():
        code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


USER_TEXT_AND_VOCABULARY = ("task", "answer", "type", "outcome", "status", "stop_reason")


def shown_values(record: Any, skip: tuple[str, ...] = USER_TEXT_AND_VOCABULARY) -> list[str]:
    """The string values of a run record (keys are structure, never redacted), without the
    user's text and gent's vocabulary (``"outcome": "feedback"``).
    """
    if isinstance(record, dict):
        return [
            text
            for key, value in record.items()
            if key not in skip
            for text in shown_values(value, skip)
        ]
    if isinstance(record, list):
        return [text for item in record for text in shown_values(item, skip)]
    return [record] if isinstance(record, str) else []


@examples(20)
@given(
    secret=SECRETS,
    via_env=st.booleans(),
    task=text(1, 60).map(lambda value: f"Q {value}"),
    answer=text(),
    thinking=text(),
    tool_text=text(),
    chatter=text(),
    data=st.data(),
)
def test_redaction_masks_credentials_and_never_rewrites_the_users_text(
    sandbox: PluginSandbox,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    secret: str,
    via_env: bool,
    task: str,
    answer: str,
    thinking: str,
    tool_text: str,
    chatter: str,
    data: st.DataObject,
) -> None:
    # the secret is often inside the texts: that is what masking is about
    def maybe_with_secret(value: str) -> str:
        where = data.draw(st.sampled_from(["none", "start", "middle", "end"]))
        middle = len(value) // 2
        return {
            "none": value,
            "start": f"{secret}{value}",
            "middle": f"{value[:middle]}{secret}{value[middle:]}",
            "end": f"{value}{secret}",
        }[where]

    task, answer = maybe_with_secret(task), maybe_with_secret(answer)
    thinking, tool_text = maybe_with_secret(thinking), maybe_with_secret(tool_text)
    long = len(secret) >= MIN_TEXT_SECRET_LENGTH

    def mask(value: str) -> str:
        return value.replace(secret, MASK) if long else value

    directory = tmp_path_factory.mktemp("redaction")
    credential = quoted("${GENT_PROPERTY_API_KEY}" if via_env else secret)
    append = f"Remember {secret}."
    outputs = [
        f"<thinking>{thinking}</thinking>{action({'text': tool_text})}",
        chatter,  # no section: feedback
        action({"text": tool_text, "fail": True}),
        f"<answer>{answer}</answer>",
    ]
    agent = directory / "agent.yaml"
    agent.write_text(config(outputs, credential, append))
    transcript = directory / "run.jsonl"

    with environment("GENT_PROPERTY_API_KEY", secret):
        # --- the live view, and the transcript
        code, out, err = run(
            sandbox, capsys, "run", str(agent), task, "--transcript", str(transcript)
        )
        assert code == 0, err
        assert f"Task: {task}\n" in out
        assert f"[answer] {answer}\n" in out
        assert f"\nAnswer: {answer}\n" in out
        assert f"{mask('[thinking] ')}{mask(thinking)}\n" in out  # gent's label, model text
        assert f"-> echo {write_json({'text': tool_text}, redact=mask)}\n" in out
        assert f"<- echo: {mask(tool_text)}\n" in out
        assert "<- echo failed: " in out
        if long:
            rest = out.replace(f"Task: {task}\n", "").replace(f"[answer] {answer}\n", "")
            assert secret not in rest.replace(f"Answer: {answer}\n", "") + err

        lines = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
        assert [line["type"] for line in lines] == ["run", "step", "step", "step", "step", "end"]
        header, steps, end = lines[0], lines[1:-1], lines[-1]
        assert header["task"] == task
        assert header["config"]["tools"][0]["api_key"] == MASK
        assert end["answer"] == steps[-1]["answer"] == answer
        assert [step["output"] for step in steps] == [mask(output) for output in outputs]
        assert steps[0]["calls"][0]["output"] == mask(tool_text)
        assert [step["outcome"] for step in steps] == ["action", "feedback", "action", "answer"]
        if long:
            assert not [value for value in shown_values(lines) if secret in value]

        # --- --json: the same record
        code, out, err = run(sandbox, capsys, "run", str(agent), task, "--json")
        assert code == 0, err
        printed = json.loads(out)
        assert printed["task"] == task and printed["answer"] == answer
        assert printed["steps"][-1]["answer"] == answer
        assert [step["output"] for step in printed["steps"]] == [mask(output) for output in outputs]
        assert printed["steps"][0]["calls"][0]["args"] == {"text": mask(tool_text)}
        assert printed["steps"][0]["calls"][0]["output"] == mask(tool_text)
        assert "cannot echo" in printed["steps"][2]["calls"][0]["error"]
        if long:
            assert not [value for value in shown_values(printed) if secret in value]
            assert secret not in err

        # --- --resume -q: the transcript reads back; cut after step 3, the run continues
        transcript.write_text(
            "".join(json.dumps(line) + "\n" for line in lines[:-2]), encoding="utf-8"
        )
        resumed = directory / "resumed.yaml"
        resumed.write_text(config(outputs[-1:], credential, append))
        code, out, err = run(
            sandbox, capsys, "run", str(resumed), "--resume", str(transcript), "-q"
        )
        assert (code, out) == (0, f"{answer}\n"), err
        types = [json.loads(line)["type"] for line in transcript.read_text().splitlines()]
        assert types == ["run", "step", "step", "step", "resume", "step", "end"]

        # --- describe --prompt: the task as the back end writes it, the rest redacted
        code, out, err = run(sandbox, capsys, "describe", str(agent), "--prompt", task)
        assert code == 0, err
        request = json.loads(out.split("\n\n", 1)[1].split("\n# Grammar", 1)[0])
        assert request[-1] == {"role": "user", "content": task}
        assert f"Remember {mask(secret)}." in request[0]["content"]

        # --- a config error quoting the credential (under a key of its own) never shows it
        broken = directory / "broken.yaml"
        broken.write_text(config(outputs, credential, append, headers=credential))
        code, out, err = run(sandbox, capsys, "run", str(broken), task)
        assert code == 2
        assert "key 'tools.0.headers'" in err and "got (secret value)" in err

"""How the chains write raw tool outputs (JSON and YAML)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
from pathlib import Path
from typing import Any

import pytest
import yaml
from gent_json import JSONToolChain
from gent_yaml import YAMLToolChain
from pydantic import BaseModel

from gent_core._serialize import json_default, to_jsonable


class Colour(enum.Enum):
    RED = "red"


class Customer(BaseModel):
    id: str
    since: dt.date


@dataclasses.dataclass
class Flight:
    number: str
    departs: dt.datetime
    customer: Customer


RICH = {
    "flight": Flight(
        "LH123",
        dt.datetime(2026, 1, 20, 9, 30, tzinfo=dt.timezone.utc),
        Customer(id="C001", since=dt.date(2020, 5, 1)),
    ),
    "path": Path("notes/a.txt"),
    "tags": {"b", "a"},
    "colour": Colour.RED,
    "wait": dt.timedelta(minutes=1, seconds=30),
}
PLAIN = {
    "flight": {
        "number": "LH123",
        "departs": "2026-01-20T09:30:00+00:00",
        "customer": {"id": "C001", "since": "2020-05-01"},
    },
    "path": "notes/a.txt",
    "tags": ["a", "b"],
    "colour": "red",
    "wait": 90.0,
}


def test_json_output_handles_models_dataclasses_dates_paths_and_sets() -> None:
    import json

    assert json.loads(JSONToolChain().format_output(RICH)) == PLAIN


def test_json_output_is_one_line_unless_indented() -> None:
    assert JSONToolChain().format_output({"a": [1, 2], "é": None}) == '{"a": [1, 2], "é": null}'
    assert JSONToolChain(indent=2).format_output({"a": 1}) == '{\n  "a": 1\n}'


@pytest.mark.parametrize("chain", [JSONToolChain(), YAMLToolChain()], ids=["json", "yaml"])
def test_a_string_stays_as_it_is(chain: Any) -> None:
    text = "line one\n  {not: json}\n"
    assert chain.format_output(text) == text


def test_yaml_output_uses_blocks_for_multi_line_text_and_keeps_key_order() -> None:
    output = {"zeta": "first line\nsecond line", "alpha": [1, {"b": None}], "date": "2026-01-20"}
    text = YAMLToolChain().format_output(output)
    assert text == (
        "zeta: |-\n  first line\n  second line\nalpha:\n- 1\n- b: null\ndate: '2026-01-20'"
    )
    assert yaml.safe_load(text) == output


def test_yaml_output_of_rich_values_round_trips_to_plain_data() -> None:
    assert yaml.safe_load(YAMLToolChain().format_output(RICH)) == PLAIN


@pytest.mark.parametrize(
    ("value", "json_text", "yaml_text"),
    [(None, "null", "null"), (42, "42", "42"), (True, "true", "true"), ([], "[]", "[]")],
)
def test_scalars(value: Any, json_text: str, yaml_text: str) -> None:
    assert JSONToolChain().format_output(value) == json_text
    assert YAMLToolChain().format_output(value) == yaml_text


def test_bytes_are_text_or_base64() -> None:
    assert json_default(b"hello") == "hello"
    assert json_default(b"\xff\x00") == "/wA="


def test_to_jsonable_refuses_cycles() -> None:
    loop: dict[str, Any] = {}
    loop["self"] = loop
    with pytest.raises(ValueError, match="nests deeper"):
        to_jsonable(loop)


def test_to_jsonable_stringifies_keys() -> None:
    assert to_jsonable({1: "a", None: "b", Path("p"): "c"}) == {"1": "a", "null": "b", "p": "c"}

"""parse_options_model: a component's own pydantic options model, errors for the person."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field

from gent_core._config.options import parse_options_model
from gent_core.errors import ConfigError


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")

    api_key: str | None = None
    retries: int = Field(3, ge=0)


def test_valid_options_are_validated_and_coerced() -> None:
    options = parse_options_model(Options, {"retries": "5"}, plugin="demo")
    assert options.retries == 5


def test_every_problem_is_named_with_the_accepted_options_and_no_value() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_options_model(Options, {"retries": -1, "colour": "sk-secret-value"}, plugin="demo")
    text = str(caught.value)
    assert text.startswith("invalid demo model options: ")
    assert "retries: Input should be greater than or equal to 0" in text
    assert "colour: Extra inputs are not permitted" in text
    assert "Accepted options: api_key, retries." in text
    assert "sk-secret-value" not in text
    assert caught.value.__cause__ is None
    assert caught.value.location.plugin == "demo"

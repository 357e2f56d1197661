"""Redaction of whole and streamed texts: secrets and URL passwords (issue 11, bug 9)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gent_core._config.secrets import Redactor, redact_url_passwords
from gent_core.testing import profile_examples

SECRETS = ["sk-abcdef123456", "abcd", "cdXY", "aaa"]


def test_url_passwords_are_masked_but_user_names_kept() -> None:
    text = "see https://bob:hunter2@example.com/x and ftp://anon@host and a://u:p@"
    assert redact_url_passwords(text) == (
        "see https://bob:***@example.com/x and ftp://anon@host and a://u:***@"
    )


def test_redactor_masks_secrets_then_url_passwords() -> None:
    redactor = Redactor(["tok-1234"])
    assert redactor("k=tok-1234 u=http://me:tok-1234@h") == "k=*** u=http://me:***@h"


def split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({min(cut, len(text)) for cut in cuts})
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]


@profile_examples(400)
@given(
    words=st.lists(
        st.sampled_from([*SECRETS, "sk-abc", "http://u:pw@h", "://x:", "ab", " ", "c", ":"]),
        max_size=20,
    ),
    cuts=st.lists(st.integers(min_value=1, max_value=200), max_size=15),
)
def test_streamed_redaction_equals_whole_text_redaction_for_any_chunking(
    words: list[str], cuts: list[int]
) -> None:
    redactor = Redactor(SECRETS)
    text = "".join(words)
    stream = redactor.stream()
    shown = "".join(stream.feed(chunk) for chunk in split(text, cuts)) + stream.flush()
    assert shown == redactor.redact(text)


def test_stream_shows_text_that_cannot_be_a_secret_at_once() -> None:
    stream = Redactor(["secret-value"]).stream()
    assert stream.feed("hello world") == "hello world"
    assert stream.feed(" the sec") == " the "  # "sec" may start the secret: held
    assert stream.feed("ond") == "second"
    assert stream.feed(" secret-va") == " "
    assert stream.feed("lue!") == "***!"
    assert stream.flush() == ""

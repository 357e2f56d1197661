"""Shared fixtures of the core test suite (the gent testing kit's fixtures load via pytest11)."""

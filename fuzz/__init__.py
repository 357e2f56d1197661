"""Fuzz targets of gent's parsers (atheris), replayed without atheris by the test suite.

See ``fuzz/README.md``: ``python3 dev.py fuzz [TARGET] [--time SECONDS]``.
"""

"""The ``gent`` command line."""

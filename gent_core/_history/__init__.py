"""The run history: every ``gent run`` and ``gent chat`` turn, logged to a SQLite database.

* :mod:`~gent_core._history.paths` says where the database lives (the user's data directory,
  ``GENT_HOME`` to move it) and whether logging is switched off (``gent logs off``);
* :mod:`~gent_core._history.store` is the database: its schema and migrations, writing a run's
  records, and the queries ``gent logs`` answers (full-text search with SQLite FTS5);
* :mod:`~gent_core._history.recorder` writes one run into the store as it happens, with the
  same records as a JSONL transcript, and never lets a logging problem stop the run.
"""

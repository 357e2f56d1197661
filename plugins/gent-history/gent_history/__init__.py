"""gent-history: the run history of gent. Every ``gent run`` and ``gent chat`` turn, logged to
a SQLite database; ``gent logs``; ``gent run --continue`` and ``--resume ID``.

* :mod:`~gent_history.plugin` is the gent plugin: ``gent logs`` (``gent_register_commands``)
  and the run history of the commands that run agents (``gent_resolve_run``), answered by
  :mod:`~gent_history.session`; ``gent logs`` itself is :mod:`~gent_history.logs`;
* :mod:`~gent_history.paths` says where the database lives (the user's data directory,
  ``GENT_HOME`` to move it) and whether logging is switched off (``gent logs off``);
* :mod:`~gent_history.store` is the database: opening it (:mod:`~gent_history.schema`
  brings its schema up to date), writing a run's records, and the queries ``gent logs``
  answers (full-text search with SQLite FTS5);
* :mod:`~gent_history.columns` is what crosses into and out of it: every value bound made
  storable in one place, every row read back checked (a damaged row is a
  :class:`~gent_history.errors.DamagedRow` naming the run);
* :mod:`~gent_history.recorder` writes one run into the store as it happens, with the
  same records as a JSONL transcript, on the process's writer thread
  (:mod:`~gent_history.writer`) through the connection the process keeps open
  (:mod:`~gent_history.shared`), and never lets a logging problem stop the run;
* :mod:`~gent_history.running` is the lock a running run holds, so ``--resume ID``
  refuses a run that another process is running; :mod:`~gent_history.replay` reads a
  logged run back for ``--resume`` and ``--continue`` (:mod:`~gent_history.conversation`:
  the last logged conversation).
"""

"""The run transcript: a JSONL file appended step by step by a run observer, and resuming
from it.

Each line is one JSON object with a ``type``:

``run``     the header: format version, task, start time, system prompt, config (redacted)
``resume``  a later process continued the run from here
``step``    one completed step (:meth:`StepRecord.to_dict`)
``end``     the run's end: stop reason, answer, statistics

Every line is flushed as soon as it is written, so a run killed mid-way leaves a readable
record of every completed step. Every string value except the user's own text (the task, the
answer) goes through a redaction function first (:func:`~gent_core.records.redact_record`),
so secrets never reach the file; keys and structure are never changed, so the file reads back
as it was written; and every line is strict JSON (:func:`gent_core._serialize.write_json`).

One file holds one run. A new run refuses a file that already holds lines (give another
path, delete it, or resume its run); only a resumed run appends. While a run writes its
transcript it holds an exclusive lock on the file, so a second writer (another run, or a
resume of the same run) is refused with an error naming the file instead of interleaving its
steps: ``fcntl.flock`` on POSIX; on Windows a byte-range lock (``msvcrt.locking``) on one byte
far past the end of the file, as SQLite does, so readers and the writer's own appends are not
blocked. A file system that cannot lock at all (some network mounts) is written unlocked,
with a warning. The reader refuses what only interleaved or concatenated runs produce: a
second ``run`` line, steps out of order, a step after the run's end.

Damage is handled, never raised as anything but a :class:`~gent_core.errors.GentError`:

* the writer opens its file before the run starts, so a path that cannot be written (a directory,
  a path under a file, no permission), a transcript that already holds a run, or one locked by
  another writer fails *before* the run starts;
* a partial last line (killed while writing) is ignored when reading, and cut off when a
  resumed run appends to the file, so the new lines never join it (the ``resume`` line says how
  many characters were discarded);
* a corrupt line (not UTF-8, not JSON, a missing or invalid field) is an error naming the file,
  the line and the field;
* a file that cannot be written once the run has started is one warning, and the run goes on.

The lines are built and read back in :mod:`~gent_core._transcript.lines` (the history's
recorder builds its records there too) and written by :mod:`~gent_core._transcript.writer`.
"""

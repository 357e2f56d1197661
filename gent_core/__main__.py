"""``python -m gent_core`` runs the ``gent`` command."""

import sys

from gent_core.cli.main import main

sys.exit(main())

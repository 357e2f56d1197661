"""``python -m gent_core`` runs the ``gent`` command."""

import sys

from gent_core._cli.main import main

sys.exit(main())

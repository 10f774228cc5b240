"""``python -m pacru`` runs the command line program."""

import sys

from pacru.cli import main

sys.exit(main())

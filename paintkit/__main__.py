"""``python -m paintkit``: the ``paintkit`` command, for environments without its script."""

import sys

from paintkit.cli.main import main

sys.exit(main())

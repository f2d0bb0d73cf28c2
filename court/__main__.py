"""``python -m court``: the same program as the ``court`` console script."""

import sys

from court.cli.main import main

sys.exit(main())

"""``python -m court.cli``: the same program as the ``court`` console script."""

import sys

from .main import main

sys.exit(main())

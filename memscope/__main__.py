"""``python -m memscope``."""

import sys

from memscope.cli import main

sys.exit(main())

"""``python -m jaxlint`` is the ``jaxlint`` command."""

import sys

from jaxlint.cli import main

if __name__ == "__main__":
    sys.exit(main())

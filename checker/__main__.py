"""`python -m checker …` is the `rulebook` command."""

import sys

from checker.cli import main

if __name__ == "__main__":
    sys.exit(main())

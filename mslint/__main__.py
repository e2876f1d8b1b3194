import sys

from mslint.cli import main

sys.exit(main())

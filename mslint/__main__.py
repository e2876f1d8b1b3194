import os
import sys

# ``python -m`` puts the current folder first on sys.path: a user's argparse.py or
# dataclasses.py there would run in place of the standard library's (pylint drops it too).
if sys.path and sys.path[0] in ("", ".", os.getcwd()):
    del sys.path[0]

from mslint.console import main

sys.exit(main())

"""Print the Python versions pyproject.toml's classifiers name, other than the one running this."""

import sys

import tomllib

PREFIX = "Programming Language :: Python :: "

with open("pyproject.toml", "rb") as stream:
    classifiers = tomllib.load(stream)["project"]["classifiers"]
running = f"{sys.version_info.major}.{sys.version_info.minor}"
print(" ".join(c.removeprefix(PREFIX) for c in classifiers if c.startswith(PREFIX + "3.") and c != PREFIX + running))

"""mslint: find MindSpore code that will not survive static-graph compilation."""

__version__ = "0.1.0"

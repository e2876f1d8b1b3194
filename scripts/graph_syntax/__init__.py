"""Small graph programs built from forms: what the syntax table generator and the differential
tester compile (through :mod:`mslint.verify.runner`) and compare with ``mslint check``."""

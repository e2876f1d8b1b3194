"""The attacks, re-exported: importing the package builds none of their Cells."""

from .attacks import InversionAttack, ShadowAttack

__all__ = ["InversionAttack", "ShadowAttack"]

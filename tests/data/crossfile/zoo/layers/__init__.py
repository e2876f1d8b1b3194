from .base import BaseBlock

__all__ = ["BaseBlock"]

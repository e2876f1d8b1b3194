from .base import BaseBlock
from .helpers import clip_scores


class RelativeBlock(BaseBlock):
    def construct(self, x):
        values, _ = self.pick(x)  # expect: dynamic-shape-op
        return clip_scores(self.norm(values))

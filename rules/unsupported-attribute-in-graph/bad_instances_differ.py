"""Two instances of one Block, built with different flags: the compiler specialises each on its
own constants and keeps only the branches that instance takes. The gated instance takes `if
self.gated`, and compiling its read of `gate_mlp` fails; neither instance is both attentive and gated,
so the read of `mix` is compiled for none (see good_instances_differ.py)."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, attention=False, gated=False):
        super().__init__()
        self.attention = attention
        self.gated = gated
        self.proj = nn.Dense(dim, dim)
        if attention:
            self.local_attn = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.local_attn(x)
        if self.gated:
            x = self.gate_mlp(x)  # expect: unsupported-attribute-in-graph
        if self.attention and self.gated:
            x = self.mix(x)
        return self.proj(x)


class Encoder(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.local = Block(4, attention=True)
        self.gating = Block(4, gated=True)

    def construct(self, x):
        return self.gating(self.local(x))

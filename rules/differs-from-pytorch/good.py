"""The PyTorch meaning, written as MindSpore takes it, and MindSpore's own spellings."""

from mindspore import mint, nn, ops


class Block(nn.Cell):  # mslint: inputs=float32[2,8,8]
    def __init__(self, dropout=0.1, keep_prob=0.9):
        super().__init__()
        self.drop = nn.Dropout(p=0.1)
        self.attention_drop = nn.Dropout(1 - dropout)
        self.keep = nn.Dropout(keep_prob)
        self.half = nn.Dropout(0.5)
        self.torch_like = mint.nn.Dropout(0.1)  # mint takes PyTorch's arguments
        self.norm = nn.BatchNorm1d(8, momentum=0.9)
        # frozen: normalizes with its moving statistics and never updates them (measured on 2.10:
        # moving_mean stays 0 after a training step), so PyTorch's momentum changes nothing
        self.frozen = nn.BatchNorm1d(8, momentum=0.1, use_batch_statistics=False)

    def construct(self, x):
        y = self.torch_like(self.keep(self.half(self.drop(self.attention_drop(x)))))
        z = self.norm(self.frozen(x.reshape(-1, 8))).reshape(2, -1)
        return y, ops.std(z, 1, ddof=1), z.var(1, ddof=0)


class Swaps(nn.Cell):  # mslint: inputs=float32[2,3,4]
    def construct(self, x):
        return x.swapaxes(1, 2), x.transpose((0, 2, 1)), x[0].transpose(1, 0)


class ConfiguredBlock(nn.Cell):  # mslint: inputs=float32[2,8]
    """A configured rate by keyword, and values the code shows to be keep probabilities."""

    def __init__(self, cfg=None):
        super().__init__()
        cfg = cfg or {"dropout": 0.1, "keep_prob": 0.9}
        self.drop = nn.Dropout(p=cfg["dropout"])
        self.complement = nn.Dropout(1 - cfg["dropout"])
        self.keep = nn.Dropout(cfg["keep_prob"])
        self.named = nn.Dropout(keep_prob=cfg["keep_prob"])

    def construct(self, x):
        return self.named(self.keep(self.complement(self.drop(x))))


class KeywordAndMatrixSwaps(nn.Cell):  # mslint: inputs=float32[2,3,4]
    """By keyword, `transpose` swaps in graph code too (measured: transpose-keyword-axes); on a
    tensor known to be 2-D, `(-1, -2)` is the same swap in both readings."""

    def construct(self, x):
        return x.transpose(dim0=1, dim1=2), ops.matmul(x[0], x[0].transpose(-1, -2))


class MatrixSwap(nn.Cell):  # mslint: inputs=float32[3,4]
    def construct(self, x):
        return ops.matmul(x, x.transpose(-1, -2))

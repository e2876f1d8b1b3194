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

"""Slices the compiler resolves: constants, shapes, unrolled loop indices, Python defaults."""

from mindspore import nn, ops


class ShapeDerivedSlice(nn.Cell):  # mslint: inputs=float32[8,4]
    def construct(self, x):
        return x[: x.shape[0] // 2]


class ConstantSlices(nn.Cell):  # mslint: inputs=float32[8,4]
    def construct(self, x):
        return x[1:3, 0] + x[-2:, -1]


class UnrolledLoopSlices(nn.Cell):  # mslint: inputs=float32[8,4]
    def construct(self, x):
        out = x[0:1]
        for i in range(1, 3):
            out = out + x[i : i + 1]
        return out


class PythonScalarBound(nn.Cell):  # mslint: inputs=float32[8,4]
    def __init__(self, keep=3):
        super().__init__()
        self.keep = keep

    def construct(self, x, head=2):
        return x[: self.keep] * 2, x[:head]


class NestedFunctionGivenAShape(nn.Cell):  # mslint: inputs=float32[8,4]
    """A function nested in `construct` takes the kinds of its calls' arguments: here a constant."""

    def construct(self, x):
        def head(t, n):
            return t[:n]

        return head(x, x.shape[0] // 2)


class _Window(nn.Cell):
    def construct(self, x, rows, cols):
        return x[:rows, :cols]


class BlocksGivenShapes(nn.Cell):  # mslint: inputs=float32[8,4]
    """Sub-Cells called from a loop over an `nn.CellList` take the kinds of the loop's arguments."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([_Window() for _ in range(2)])

    def construct(self, x):
        rows, cols = x.shape
        for block in self.blocks:
            x = block(x, rows // 2, cols)
        return self.blocks[0](x, 1, cols)


class LiteralDefaults(nn.Cell):  # mslint: inputs=float32[8,4]
    """Literal defaults mark Python values however they are written: `-1`, a tuple."""

    def construct(self, x, end=-1, window=(2, 3)):
        return x[:end, : window[1]] * 2, x[: window[0]]


class BlocksByName(nn.Cell):  # mslint: inputs=float32[8,4]
    """Sub-Cells set with `setattr` and called back with `getattr` take the kinds of the call's arguments."""

    def __init__(self):
        super().__init__()
        for i in range(2):
            setattr(self, f"block{i}", _Window())

    def construct(self, x):
        rows, cols = x.shape
        for i in range(2):
            x = getattr(self, f"block{i}")(x, rows // 2, cols)
        return x


def _split(x, groups):
    """One name for two loops: the tensors of `ops.split` in one, the Python ints of a list in the other."""
    parts = []
    if isinstance(groups, int):
        for part in ops.split(x, x.shape[1] // groups, axis=1):
            parts.append(part)
    else:
        start = 0
        for part in groups:
            parts.append(x[:, start : start + part])
            start = start + part
    return parts


class LoopItemsOfAConstantList(nn.Cell):  # mslint: inputs=float32[8,4]
    """Inside a loop's body its target is an item of that loop's iterable, whatever another loop binds to the name."""

    def __init__(self):
        super().__init__()
        self.channels = [1, 3]

    def construct(self, x):
        halves = _split(x, 2)
        parts = _split(x, self.channels)
        return halves[0] * 2, parts[1]

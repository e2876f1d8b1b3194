"""Calls whose argument values MindSpore 2.10 refuses only when the graph runs, as measured by
scripts/generate_argument_table.py (mslint/data/arguments-2.10.0.json): the graph compiles, and
its first run stops in the operator's kernel with the release's message. `mslint verify` takes
the problems of a compile for evidence, and a graph run that raises only for a reason it could not
compare graph mode with PyNative, so it cannot confirm these."""

from mindspore import nn


class RoundsToTwoDigits(nn.Cell):  # mslint: inputs=float32[2,6]
    """`round(x, 2)` compiles to the operator of `x.round(2)`: 2.10 says "For Round only support
    decimals equal 0, but got decimals equal 2"."""

    def construct(self, x):
        rounded = round(x, 2)  # expect: unknown-mindspore-api
        return rounded + x.round(2)  # expect: unknown-mindspore-api

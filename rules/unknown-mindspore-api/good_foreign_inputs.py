"""A Cell every call of which passes an object of another library gets that object, not a tensor:
the graph compiles the object's own methods (2.10, STRICT and LAX: `Decimal("2").sqrt()` and its
`to_eng_string()` compile and return '1.414...', as a polars DataFrame's `select(...).to_numpy()`
does), so what the Tensor API lacks says nothing of them."""

from decimal import Decimal

from mindspore import nn


class RootAsText(nn.Cell):
    def construct(self, amount):
        return amount.sqrt().to_eng_string()


if __name__ == "__main__":
    RootAsText()(Decimal("2"))

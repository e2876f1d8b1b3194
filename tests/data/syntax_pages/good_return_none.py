import mindspore as ms


@ms.jit
def optional(x, y=None):
    if y is None:
        return x
    return x + y


print(optional(ms.Tensor([1, 2])))

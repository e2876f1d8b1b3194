import mindspore as ms


@ms.jit
def total(values):
    out = values[0]
    for v in values[1:]:
        out = out + v
    return out


print(total([ms.Tensor([1.0]), ms.Tensor([2.0]), ms.Tensor([3.0])]))

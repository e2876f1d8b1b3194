import mindspore as ms
from mindspore import ops


def scaled_sum(a, b, k=2):
    return ops.add(a, b) * k


@ms.jit
def outer(a, b):
    return scaled_sum(a, b), scaled_sum(a, b, k=5)


print(outer(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])))

import mindspore as ms
from mindspore import ops

x = ms.Tensor([1.0])
y = ms.Tensor([2.0])
grad = ops.GradOperation(get_by_list=False, sens_param=True)


def pair(a, b):
    return a, b


@ms.jit
def backward():
    sens = ops.Fill()(ops.DType()(x), ops.Shape()(x), 1.0)
    return grad(pair)(x, y, (sens, sens))


backward()

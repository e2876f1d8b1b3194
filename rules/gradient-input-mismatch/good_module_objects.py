"""The fixes of bad_module_objects.py: a tuple of two sens for the function of two outputs, and a
sens cast to the output's dtype."""

import mindspore as ms
from mindspore import ops
from mindspore.ops import operations as P

y = ms.Tensor([2.0], ms.float32)
grad = ops.GradOperation(get_by_list=False, sens_param=True)


def pair(a, b):
    return a, b


def double(a):
    return a * 2


@ms.jit
def tuple_for_two_outputs(x):  # mslint: inputs=float32[1]
    sens = ops.Fill()(ops.DType()(x), ops.Shape()(x), 1.0)
    return grad(pair)(x, y, (sens, sens))


@ms.jit
def float_for_float(x):  # mslint: inputs=float32[1]
    sens = P.Cast()(ops.ones_like(x), ms.float32)
    return grad(double)(x, sens)


if __name__ == "__main__":
    tuple_for_two_outputs(ms.Tensor([1.0], ms.float32))
    float_for_float(ms.Tensor([1.0], ms.float32))

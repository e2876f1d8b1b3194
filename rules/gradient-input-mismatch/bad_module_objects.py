"""`@jit` functions that read their gradient and an input from the module's top level, as the FAQ's
example does, and make their sens with a primitive built where it is called: one tensor for a
function of two outputs, a float16 tensor for a float32 output."""

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
def tensor_for_two_outputs(x):  # mslint: inputs=float32[1]
    sens = ops.Fill()(ops.DType()(x), ops.Shape()(x), 1.0)
    return grad(pair)(x, y, sens)  # expect: gradient-input-mismatch


@ms.jit
def half_for_float(x):  # mslint: inputs=float32[1]
    sens = P.Cast()(ops.ones_like(x), ms.float16)
    return grad(double)(x, sens)  # expect: gradient-input-mismatch


if __name__ == "__main__":
    tensor_for_two_outputs(ms.Tensor([1.0], ms.float32))
    half_for_float(ms.Tensor([1.0], ms.float32))

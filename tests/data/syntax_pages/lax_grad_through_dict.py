import mindspore as ms
from mindspore import ops

ms.set_context(mode=ms.GRAPH_MODE)


@ms.jit
def with_dict(a):
    extras = {"a": a, "k": 3}
    return a, (extras, (4, 5))


print(ops.grad(with_dict)(ms.Tensor([2])))

import mindspore as ms


@ms.jit
def weighted(inputs):
    return inputs["value"] * inputs["weight"]


print(weighted({"value": ms.Tensor([1.0, 2.0]), "weight": ms.Tensor([3.0, 4.0])}))

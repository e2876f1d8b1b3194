import mindspore as ms


@ms.jit
def merge():
    parts = ({"a": 1}, {"b": 2})
    return {key: value for part in parts for (key, value) in part.items()}


print(merge())

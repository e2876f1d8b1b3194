import mindspore as ms


@ms.jit
def flatten():
    pairs = ((1, 2), (3, 4))
    return [item for pair in pairs for item in pair]


print(flatten())

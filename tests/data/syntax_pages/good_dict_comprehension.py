import mindspore as ms


@ms.jit
def keep_large():
    pairs = [("x", 4), ("y", 1), ("z", 9)]
    return {name: size for (name, size) in pairs if size > 2}


print(keep_large())

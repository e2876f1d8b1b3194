import mindspore as ms


@ms.jit
def evens():
    return tuple(n + n for n in range(5))


print(evens())

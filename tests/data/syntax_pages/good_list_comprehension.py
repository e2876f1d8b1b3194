import mindspore as ms


@ms.jit
def cubes():
    return [n * n * n for n in range(1, 8) if n % 3 == 1]


print(cubes())

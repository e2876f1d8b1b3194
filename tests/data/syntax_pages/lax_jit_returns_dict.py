import mindspore as ms


@ms.jit
def pack():
    table = {"left": "l", "right": "r"}
    picked = table.get("right")
    return dict(side=picked)


print(pack())

import mindspore as ms


class Counter:
    def __init__(self):
        self.count = 0


counter = Counter()


@ms.jit
def set_count():
    counter.count = 42
    return


set_count()
print(counter.count)

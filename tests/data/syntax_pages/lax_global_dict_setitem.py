import numpy as np
import mindspore as ms

store = {"p": ms.Tensor(np.array([1, 2])), "q": ms.Tensor(np.array([3, 4]))}


@ms.jit
def update_store():
    kept = store["q"]
    store["p"] = (5, 6)
    return store, kept


print(update_store())

import mindspore as ms
import numpy as np

from shared_blocks import SharedBlock
from zoo.models.llama import LlamaModel

ms.set_context(mode=ms.GRAPH_MODE)
print(SharedBlock()(ms.Tensor(np.ones((2, 4), np.float32))), LlamaModel())

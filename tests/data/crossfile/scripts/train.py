import numpy as np

from zoo.model import Head

net = Head()
print(np.zeros(3), net)

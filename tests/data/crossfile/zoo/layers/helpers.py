import numpy as np


def clip_scores(scores):
    return np.clip(scores, 0, 1)  # expect: third-party-call-in-graph


def unused_in_graph(batch):
    return np.clip(batch, 0, 1)

import numpy as np


def rank_table(grads):
    try:  # expect-without-pynative: unsupported-syntax
        table = np.argsort(grads)  # expect-without-pynative: third-party-call-in-graph
    except ValueError:
        table = None
    return table


def scaled(x):
    return np.tanh(x)  # expect: third-party-call-in-graph

"""Dicts updated with keywords, containers changed where graph mode loses the change, and
`globals()` read in graph code."""

from mindspore import nn

CACHE = {"a": 1}


class LocalDictUpdatedWithKeywords(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        found = {}
        found.update(last=x)  # expect: python-side-effect-in-graph
        return found["last"]


class ModuleDictUpdatedWithKeywords(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        CACHE.update(last=x)  # expect: python-side-effect-in-graph
        return x * 2


class DictAttributeUpdatedWithADict(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.cache = {"a": 1}

    def construct(self, x):
        self.cache.update({"last": x})  # expect: python-side-effect-in-graph
        return x * 2


class DictAttributeSetdefault(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.cache = {"a": 1}

    def construct(self, x):
        return x * self.cache.setdefault("b", 2)  # expect: python-side-effect-in-graph


class CountsGlobals(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * len(globals())  # expect: python-side-effect-in-graph

"""Conversions of tensors the program makes of one element, and reductions of the larger ones."""

from collections import OrderedDict

import numpy as np
import mindspore as ms
from mindspore import Parameter, ParameterTuple, Tensor, nn, ops


class NotOfOneElement(nn.Cell):
    def construct(self, flag, x):
        if not flag:
            return x
        return x * 2


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(10, 1)

    def construct(self, x):
        return self.fc(x)


class ConditionOnAReducedOutput(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = Head()
        self.sum = ops.ReduceSum()

    def construct(self, x):
        score = self.head(x).squeeze()
        if score > 0:
            x = x * 2
        if self.sum(x) > 0:
            return x
        return -x


class ConditionInATrainingStep(nn.Cell):
    """Called only through the training step, whose loop gives it a batch of one element."""

    def construct(self, x):
        if x > 0:
            return (x * 2).sum()
        return x.sum()


stepped = ConditionInATrainingStep()
grad_fn = ms.value_and_grad(stepped)


@ms.jit
def train_step(x):
    loss, gradient = grad_fn(x)
    return loss


def train(epochs):
    for _ in range(epochs):
        train_step(Tensor(np.ones((1,), np.float32)))


class ConditionInATrainedNetwork(nn.Cell):
    """Trained as MindSpore's wrappers train it: `TrainOneStepCell(WithLossCell(net, loss), opt)`,
    called on a batch of one element and its label."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((1,), np.float32)))

    def construct(self, x):
        if x > 0:
            return x * self.w
        return x


def train_wrapped(epochs):
    net = ConditionInATrainedNetwork()
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.01))
    data = Tensor(np.ones((1,), np.float32))
    for _ in range(epochs):
        train_net(data, data)


class ConditionUnderAGradient(nn.Cell):
    """Differentiated as `WithLossCell`'s network by the gradient function built on it, which is
    called on a batch of one element and its label."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((1,), np.float32)))

    def construct(self, x):
        if x > 0:
            return x * self.w
        return x


def train_by_gradients(epochs):
    net = ConditionUnderAGradient()
    grad_fn = ops.GradOperation(get_by_list=True)(nn.WithLossCell(net, nn.MSELoss()), net.trainable_params())
    data = Tensor(np.ones((1,), np.float32))
    for _ in range(epochs):
        grad_fn(data, data)


class ConditionInACustomStep(nn.Cell):
    """Trained by the project's own step Cell, which keeps the network it is given and calls it
    on a batch of one element."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((1,), np.float32)))

    def construct(self, x):
        if x > 0:
            return (x * self.w).sum()
        return x.sum()


class CustomTrainStep(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.network = network
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = ops.GradOperation(get_by_list=True)

    def construct(self, x):
        loss = self.network(x)
        return loss, self.grad(self.network, self.weights)(x)


def train_custom(epochs):
    step = CustomTrainStep(ConditionInACustomStep())
    data = Tensor(np.ones((1,), np.float32))
    for _ in range(epochs):
        step(data)


class Features(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense = nn.Dense(3 * 8 * 8, 10)

    def construct(self, x):
        return self.dense(self.flatten(x))


class Gate(nn.Cell):
    """Given the Features' output by its parent: reduced to one element before the test (see bad_call_sites.py)."""

    def construct(self, y):
        if y.sum() > 0:
            return y * 2
        return y


class ConditionInASubCell(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = Features()
        self.head = Gate()

    def construct(self, x):
        return self.head(self.body(x))


class NamedGate(nn.Cell):
    """Second in an `nn.SequentialCell` of named Cells: given the output of the `nn.Dense` before it, reduced to one element before the test (see bad_call_sites.py)."""

    def construct(self, y):
        if y.sum() > 0:
            return y * 2
        return y


class SpreadGate(nn.Cell):
    """Last in an `nn.SequentialCell` spread from a list: given the output of the `nn.ReLU` before it, reduced to one element before the test (see bad_call_sites.py)."""

    def construct(self, y):
        if y.sum() > 0:
            return y * 2
        return y


class ConditionInANamedSequence(nn.Cell):
    def __init__(self):
        super().__init__()
        self.named = nn.SequentialCell(OrderedDict([("body", nn.Dense(4, 10)), ("gate", NamedGate())]))

    def construct(self, x):
        return self.named(x)


class ConditionInASpreadSequence(nn.Cell):
    def __init__(self):
        super().__init__()
        layers = [nn.Dense(4, 10)]
        layers.append(nn.ReLU())
        layers.append(SpreadGate())
        self.spread = nn.SequentialCell(*layers)

    def construct(self, x):
        return self.spread(x)


class LoopedGate(nn.Cell):
    """Second in an `nn.CellList` its parent walks, each item given what the one before returned:
    given the output of the `nn.Dense` before it, reduced to one element before the test (see bad_call_sites.py)."""

    def construct(self, y):
        if y.sum() > 0:
            return y * 2
        return y


class ConditionInACellListLoop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.stack = nn.CellList([nn.Dense(4, 10), LoopedGate()])

    def construct(self, x):
        for cell in self.stack:
            x = cell(x)
        return x


class Scores(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 1)

    def construct(self, x):
        return self.fc(x).squeeze(-1), x


class GateOnScores(nn.Cell):
    """Called by the program on the first output of a `Scores` instance: a (1,) tensor there."""

    def construct(self, logits):
        if logits > 0:
            return logits * 2
        return logits


class GateOnUnpackedScores(nn.Cell):
    """Called by the program on the first of the outputs it unpacked from a `Scores` instance: a
    (1,) tensor there."""

    def construct(self, logits):
        if logits > 0:
            return logits * 2
        return logits


class Refine(nn.Cell):
    """Repeated in an `nn.SequentialCell` built from a comprehension: the first the (1,) input, each next what the one before returned: a (1,) tensor there."""

    def construct(self, y):
        if y > 0:
            return y * 2
        return y


class ConditionInARepeatedSequence(nn.Cell):
    def __init__(self, depth):
        super().__init__()
        self.refine = nn.SequentialCell(*[Refine() for _ in range(depth)])

    def construct(self, x):
        return self.refine(x)


class SizedHead(nn.Cell):
    """Its layer sized by what the constructor is given: `nn.Dense(dim, classes)`."""

    def __init__(self, dim, classes):
        super().__init__()
        self.fc = nn.Dense(dim, classes)

    def construct(self, x):
        return self.fc(x)


class ConditionOnASizedHeadOutput(nn.Cell):
    """Its head built as `SizedHead(8, 1)` and called on the (8,) input: a (1,) tensor there."""

    def __init__(self):
        super().__init__()
        self.head = SizedHead(8, 1)

    def construct(self, x):
        logits = self.head(x)
        if logits > 0:
            return logits
        return -logits


if __name__ == "__main__":
    net = NotOfOneElement()
    net(Tensor(np.ones([1], np.int32)), Tensor(np.ones((2, 3), np.float32)))
    classifier = ConditionOnAReducedOutput()
    classifier(Tensor(np.ones((1, 10), np.float32)))
    train(2)
    train_wrapped(2)
    train_by_gradients(2)
    train_custom(2)
    gated = ConditionInASubCell()
    x = Tensor(np.ones([2, 3, 8, 8]), ms.float32)
    gated(x)
    named = ConditionInANamedSequence()
    named(Tensor(np.ones((2, 4), np.float32)))
    spread = ConditionInASpreadSequence()
    spread(Tensor(np.ones((2, 4), np.float32)))
    looped = ConditionInACellListLoop()
    looped(Tensor(np.ones((2, 4), np.float32)))
    scores = Scores()
    gate = GateOnScores()
    gate(scores(Tensor(np.ones((1, 4), np.float32)))[0])
    unpacking = GateOnUnpackedScores()
    logits, _ = scores(Tensor(np.ones((1, 4), np.float32)))
    unpacking(logits)
    repeated = ConditionInARepeatedSequence(3)
    repeated(Tensor(np.ones((1,), np.float32)))
    sized = ConditionOnASizedHeadOutput()
    sized(Tensor(np.ones((8,), np.float32)))

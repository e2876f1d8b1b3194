"""No `# mslint: inputs=` here: the shapes come from the tensors the program makes and calls its
Cells on, and from what the layers and sub-Cells make of them."""

from collections import OrderedDict

import numpy as np
import mindspore as ms
from mindspore import Parameter, ParameterTuple, Tensor, nn, ops


class NotOfAnInput(nn.Cell):
    def construct(self, x):
        empty = not x  # expect: ambiguous-tensor-conversion
        return x, empty


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(10, 2)

    def construct(self, x):
        return self.fc(x)


class ConditionOnASubCellOutput(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = Head()

    def construct(self, x):
        logits = self.head(x)
        if logits > 0:  # expect: ambiguous-tensor-conversion
            return logits
        return -logits


class IntOfARow(nn.Cell):
    def __init__(self):
        super().__init__()
        self.reduce = nn.Dense(4, 3)

    def construct(self, x):
        row = self.reduce(x)[0]
        return x * int(row)  # expect: ambiguous-tensor-conversion


class ConditionInATrainingStep(nn.Cell):
    """Called only through the training step: `grad_fn` wraps the module's instance, the `@jit`
    step calls `grad_fn` with the batch the loop gives it."""

    def construct(self, x):
        if x > 0:  # expect: ambiguous-tensor-conversion
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
        train_step(Tensor(np.ones((2, 4), np.float32)))


class ConditionInATrainedNetwork(nn.Cell):
    """Trained as MindSpore's wrappers train it: `TrainOneStepCell(WithLossCell(net, loss), opt)`,
    called on a batch and its label."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((1,), np.float32)))

    def construct(self, x):
        if x > 0:  # expect: ambiguous-tensor-conversion
            return x * self.w
        return x


def train_wrapped(epochs):
    net = ConditionInATrainedNetwork()
    train_net = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.01))
    data = Tensor(np.ones((2, 4), np.float32))
    for _ in range(epochs):
        train_net(data, data)


class ConditionUnderAGradient(nn.Cell):
    """Differentiated as `WithLossCell`'s network by the gradient function built on it, which is
    called on a batch and its label."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((1,), np.float32)))

    def construct(self, x):
        if x > 0:  # expect: ambiguous-tensor-conversion
            return x * self.w
        return x


def train_by_gradients(epochs):
    net = ConditionUnderAGradient()
    grad_fn = ops.GradOperation(get_by_list=True)(nn.WithLossCell(net, nn.MSELoss()), net.trainable_params())
    data = Tensor(np.ones((2, 4), np.float32))
    for _ in range(epochs):
        grad_fn(data, data)


class ConditionInACustomStep(nn.Cell):
    """Trained by the project's own step Cell, which keeps the network it is given and calls it."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((1,), np.float32)))

    def construct(self, x):
        if x > 0:  # expect: ambiguous-tensor-conversion
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
    data = Tensor(np.ones((2, 4), np.float32))
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
    """Given the Features' output by its parent: a (2, 10) output there: the sub-Cell's `construct` is evaluated on what its parent gives it."""

    def construct(self, y):
        if y > 0:  # expect: ambiguous-tensor-conversion
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
    """Second in an `nn.SequentialCell` of named Cells: given the output of the `nn.Dense` before it, a (2, 10) output there."""

    def construct(self, y):
        if y > 0:  # expect: ambiguous-tensor-conversion
            return y * 2
        return y


class SpreadGate(nn.Cell):
    """Last in an `nn.SequentialCell` spread from a list: given the output of the `nn.ReLU` before it, a (2, 10) output there."""

    def construct(self, y):
        if y > 0:  # expect: ambiguous-tensor-conversion
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
    given the output of the `nn.Dense` before it, a (2, 10) output there."""

    def construct(self, y):
        if y > 0:  # expect: ambiguous-tensor-conversion
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
        self.fc = nn.Dense(4, 10)

    def construct(self, x):
        return self.fc(x), x


class GateOnScores(nn.Cell):
    """Called by the program on the first output of a `Scores` instance: a (2, 10) tensor there."""

    def construct(self, logits):
        if logits > 0:  # expect: ambiguous-tensor-conversion
            return logits * 2
        return logits


class GateOnUnpackedScores(nn.Cell):
    """Called by the program on the first of the outputs it unpacked from a `Scores` instance: a
    (2, 10) tensor there."""

    def construct(self, logits):
        if logits > 0:  # expect: ambiguous-tensor-conversion
            return logits * 2
        return logits


class Refine(nn.Cell):
    """Repeated in an `nn.SequentialCell` built from a comprehension: the first the (2, 4) input, each next what the one before returned: a (2, 4) tensor there."""

    def construct(self, y):
        if y > 0:  # expect: ambiguous-tensor-conversion
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
    """Its head built as `SizedHead(8, 10)` and called on the (2, 8) input: a (2, 10) tensor there."""

    def __init__(self):
        super().__init__()
        self.head = SizedHead(8, 10)

    def construct(self, x):
        logits = self.head(x)
        if logits > 0:  # expect: ambiguous-tensor-conversion
            return logits
        return -logits


if __name__ == "__main__":
    net = NotOfAnInput()
    x = Tensor(np.ones([2, 2], np.int32))
    net(x)
    classifier = ConditionOnASubCellOutput()
    classifier(Tensor(np.ones((2, 10), np.float32)))
    rows = IntOfARow()
    rows(Tensor(np.ones((2, 4), np.float32)))
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
    gate(scores(Tensor(np.ones((2, 4), np.float32)))[0])
    unpacking = GateOnUnpackedScores()
    logits, _ = scores(Tensor(np.ones((2, 4), np.float32)))
    unpacking(logits)
    repeated = ConditionInARepeatedSequence(3)
    repeated(Tensor(np.ones((2, 4), np.float32)))
    sized = ConditionOnASizedHeadOutput()
    sized(Tensor(np.ones((2, 8), np.float32)))

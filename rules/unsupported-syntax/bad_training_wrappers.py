"""Training scripts call their Cell through MindSpore's wrappers, from other functions: what the
script passes is what the Cell gets. A tensor there is a graph input: `range` of it fails (see
good_training_wrappers.py for the same scripts passing a Python number)."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Repeated(nn.Cell):
    """Called as in MindSpore's tutorial: `forward_fn` calls the module's `net`, `value_and_grad`
    wraps it, `train_step` calls the wrapper, the loop calls `train_step`."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x, steps):
        for _ in range(steps):  # expect: unsupported-syntax
            x = self.dense(x)
        return x


net = Repeated()
loss_fn = nn.MSELoss()
optimizer = nn.SGD(net.trainable_params(), 0.01)


def forward_fn(data, steps, label):
    return loss_fn(net(data, steps), label)


grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)


@ms.jit
def train_step(data, steps, label):
    loss, grads = grad_fn(data, steps, label)
    optimizer(grads)
    return loss


def train(epochs):
    data = Tensor(np.ones((2, 4), np.float32))
    for _ in range(epochs):
        train_step(data, Tensor(3, ms.int32), data)


class RepeatedInAClosure(nn.Cell):
    """Built in the training function, called by a `forward_fn` defined there."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x, steps):
        for _ in range(steps):  # expect: unsupported-syntax
            x = self.dense(x)
        return x


def train_in_a_closure(epochs):
    model = RepeatedInAClosure()
    criterion = nn.MSELoss()
    sgd = nn.SGD(model.trainable_params(), 0.01)

    def forward(data, steps, label):
        return criterion(model(data, steps), label)

    gradients = ms.value_and_grad(forward, None, sgd.parameters)
    data = Tensor(np.ones((2, 4), np.float32))
    for _ in range(epochs):
        loss, grads = gradients(data, Tensor(2, ms.int32), data)
        sgd(grads)


class RepeatedByAReturnedStep(nn.Cell):
    """Called by the `train_step` a helper returns, which calls the `value_and_grad` another returns."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x, steps):
        for _ in range(steps):  # expect: unsupported-syntax
            x = self.dense(x)
        return x


stepped = RepeatedByAReturnedStep()
stepped_optimizer = nn.SGD(stepped.trainable_params(), 0.01)


def stepped_loss(data, steps):
    return stepped(data, steps).sum()


def make_grad_fn():
    return ms.value_and_grad(stepped_loss, None, stepped_optimizer.parameters)


def make_train_step():
    stepped_grad = make_grad_fn()

    def one_step(data, steps):
        loss, grads = stepped_grad(data, steps)
        stepped_optimizer(grads)
        return loss

    return one_step


def train_by_a_returned_step(epochs):
    step = make_train_step()
    data = Tensor(np.ones((2, 4), np.float32))
    for _ in range(epochs):
        step(data, Tensor(4, ms.int32))


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    train(2)
    train_in_a_closure(2)
    train_by_a_returned_step(2)

from mindspore.communication import init

init()

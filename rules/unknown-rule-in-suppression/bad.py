"""Suppression comments naming rules that do not exist: they silence nothing."""

from mindspore import nn


class MisspeltSymbol(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * 2  # mslint: disable=third-party-call  # expect: unknown-rule-in-suppression


class UnknownCode(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x + 1  # noqa: MS1001  # expect: unknown-rule-in-suppression

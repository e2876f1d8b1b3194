"""What the rules know of Python libraries other than MindSpore."""

from __future__ import annotations

# Kept by hand: the syntax table measures a few calls of `threading` (rows `stdlib.threading.*`), and
# it shows them as "compile-time", as it shows any call the compiler folds (`math.sqrt(4.0)`); that
# a thread started while compiling never runs again is not an outcome it records.
CONCURRENCY_MODULES = ("threading", "_thread", "multiprocessing", "concurrent.futures", "asyncio")

# PyTorch Tensor methods that MindSpore 2.10 Tensors do not have, with what to use instead:
# torch-api-in-cell reports them, unknown-mindspore-api leaves them to it.
TORCH_ONLY_METHODS = {
    "cuda": "drop it: the device is chosen with `mindspore.set_device`",
    "cpu": "drop it: the device is chosen with `mindspore.set_device`",
    "detach": "use `ops.stop_gradient(x)`",
}

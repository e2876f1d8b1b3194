from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Fix, Severity
from mslint.model.module import ModuleInfo
from mslint.model.project import Project, qualified_name
from mslint.model.walk import descendants
from mslint.rules._call_edits import add_keyword, replace_node
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_CONVOLUTIONS = frozenset(f"Conv{n}d{suffix}" for n in (1, 2, 3) for suffix in ("", "Transpose"))
# Positions in `nn.Conv*d(in_channels, out_channels, kernel_size, stride, pad_mode, padding, ...)` (2.10).
_PAD_MODE, _PADDING = 4, 5


class ConvPaddingWithoutPadMode(Rule):
    """
    ## What it does
    Flags `nn.Conv1d/2d/3d` and `nn.Conv1d/2d/3dTranspose` given a non-zero literal `padding`
    without `pad_mode="pad"`, and a padding passed fifth as in PyTorch's
    `nn.Conv2d(3, 8, 3, 1, 1)` (even a zero one): MindSpore's fifth parameter is `pad_mode`.
    A padding held in a name or an expression may be zero and is not flagged, nor are the
    `mindspore.mint.nn` convolutions, which take PyTorch's arguments. The fix adds
    `pad_mode="pad"` (safe when `pad_mode` is missing; unsafe when it replaces an explicit
    `"same"` or `"valid"`, as the intent is unclear).

    ## Why it breaks graph mode
    In MindSpore `padding` is used only when `pad_mode="pad"`, and `pad_mode` defaults to
    `"same"`. Building the layer raises, so the model is never built: MindSpore 2.10 says
    `ValueError: For 'Conv2D', the 'pad' must be zero when 'pad_mode' is not 'pad', but got
    'pad': 1 and 'pad_mode': same.` (and `TypeError: For 'Conv2D', the type of 'pad_mode'
    should be 'str', but got type 'int'.` for a padding passed fifth).

    ## Example
    ```python
    self.conv = nn.Conv2d(3, 8, 3, padding=1)
    self.down = nn.Conv2d(8, 8, 3, 2, 1)
    ```

    ## Use instead
    ```python
    self.conv = nn.Conv2d(3, 8, 3, padding=1, pad_mode="pad")
    self.down = nn.Conv2d(8, 8, 3, 2, pad_mode="pad", padding=1)
    ```
    """

    code = "MS206"
    symbol = "conv-padding-without-pad-mode"
    summary = '`nn.Conv*d(..., padding=p)` with a non-zero padding and no `pad_mode="pad"`'

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        if not any(name.split(".", 1)[0] == "mindspore" for name in module.imports.values()):
            return
        if "Conv" not in module.text and not module.star_imports:
            return  # a call's qualified name ends with a name written in the module, or bound by a `*`
        for node in descendants(module.tree):
            if isinstance(node, ast.Call) and _is_convolution(node, module):
                yield from _check(node, module)


def _is_convolution(call: ast.Call, module: ModuleInfo) -> bool:
    namespace, _, name = (qualified_name(call.func, module) or "").rpartition(".")
    return name in _CONVOLUTIONS and (namespace == "mindspore.nn" or namespace.startswith("mindspore.nn."))


def _check(call: ast.Call, module: ModuleInfo) -> Iterator[Finding]:
    """Findings span the whole call: the traceback of the constructor names one of its lines,
    which one depends on the Python version."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return  # `*args`/`**kwargs` may hold either
    keywords = {k.arg: k.value for k in call.keywords}
    layer = ast.unparse(call.func)
    if len(call.args) > _PAD_MODE and _literal_ints(call.args[_PAD_MODE]) is not None:
        yield Finding(
            call,
            f"the fifth argument of `{layer}` is `pad_mode`, not `padding` as in PyTorch: building it raises",
            hint='pass `pad_mode="pad", padding=...` by keyword',
            fix=_positional_padding_fix(call, call.args[_PAD_MODE], module),
        )
        return
    pad_mode = call.args[_PAD_MODE] if len(call.args) > _PAD_MODE else keywords.get("pad_mode")
    padding = call.args[_PADDING] if len(call.args) > _PADDING else keywords.get("padding")
    if padding is None or not any(_literal_ints(padding) or ()):
        return  # no padding, a zero one, or one that may be zero (a name, an expression)
    if pad_mode is None:
        yield Finding(
            call,
            f'`{layer}` takes a non-zero `padding` only with `pad_mode="pad"` (the default is "same"): '
            "building it raises",
            hint='add `pad_mode="pad"`',
            fix=_add_pad_mode(call, module),
        )
    elif isinstance(pad_mode, ast.Constant) and isinstance(pad_mode.value, str) and pad_mode.value != "pad":
        yield Finding(
            call,
            f'`{layer}` takes a non-zero `padding` only with `pad_mode="pad"`: building it raises',
            hint='use `pad_mode="pad"` or drop `padding`',
            fix=Fix('Use `pad_mode="pad"`', (replace_node(pad_mode, '"pad"'),), "unsafe"),
        )


def _literal_ints(node: ast.expr) -> list[int] | None:
    """The values of an int literal or a tuple or list of them; None for anything else."""
    values = node.elts if isinstance(node, (ast.Tuple, ast.List)) else [node]
    ints = [v.value for v in values if isinstance(v, ast.Constant) and type(v.value) is int]
    return ints if len(ints) == len(values) else None


def _add_pad_mode(call: ast.Call, module: ModuleInfo) -> Fix:
    return Fix('Add `pad_mode="pad"`', (add_keyword(call, module, 'pad_mode="pad"'),))


def _positional_padding_fix(call: ast.Call, padding: ast.expr, module: ModuleInfo) -> Fix | None:
    """``pad_mode="pad", padding=<it>`` for the fifth argument, when no positional argument
    follows it, no keyword sets either, and no parentheses wrap it (the edit would land inside)."""
    if len(call.args) > _PAD_MODE + 1 or any(k.arg in ("pad_mode", "padding") for k in call.keywords):
        return None
    before = module.line(padding.lineno).encode("utf-8")[: padding.col_offset].rstrip()
    text = module.source_segment(padding)
    if text is None or not before.endswith(b","):
        return None
    return Fix(
        'Pass `pad_mode="pad", padding=...` by keyword', (replace_node(padding, f'pad_mode="pad", padding={text}'),)
    )

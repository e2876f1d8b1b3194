from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.cell_parameters import may_make_weights
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo, imports_in
from mslint.model.project import Project, is_mindspore_name
from mslint.model.walk import descendants
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_INIT = frozenset(["mindspore.communication.init", "mindspore.communication.management.init"])
# Calls that seed the global numpy generator, which MindSpore 2.10's initializers draw every
# Parameter's seed from (`mindspore.common.initializer._numpy_seed`): measured to make replicas agree.
_SEEDS = frozenset(
    [
        "mindspore.set_seed",
        "mindspore.common.set_seed",
        "mindspore.common.seed.set_seed",
        "mindspore.dataset.config.set_seed",
        "mindspore.dataset.core.config.set_seed",
        "numpy.random.seed",
    ]
)
_SEEDED: NodeMemo[ast.AST, ast.Call | object | None] = NodeMemo()
_TRAINING = (
    "value_and_grad",
    "grad",
    "GradOperation",
    "TrainOneStepCell",
    "TrainOneStepWithLossScaleCell",
    "Optimizer",
)
_TRAINING_METHODS = frozenset(["train", "fit"])
_LOADING = ("load_checkpoint", "load_param_into_net")
_USES: NodeMemo[ast.AST, tuple[bool, bool]] = NodeMemo()
_SAME_ON_EVERY_RANK = object()


class DistributedWithoutSeed(Rule):
    """
    ## What it does
    Flags the `init()` of `mindspore.communication` (any import form) when the program never
    seeds the weights: no `mindspore.set_seed(...)` in the module, in the project modules it
    imports (a helper such as `utils.seed_everything()`), or in the modules that import it, and
    no `set_auto_parallel_context(parameter_broadcast=True)`. `mindspore.dataset.config.set_seed`
    and `numpy.random.seed` count as seeds: in MindSpore 2.10 both seed numpy's global generator,
    from which the weight initializers draw. So does another library's `set_seed` helper
    (`mindcv.utils.set_seed(args.seed)`, whose body mslint does not read: it calls
    `mindspore.set_seed`). `random.seed` and `mindspore.manual_seed` do not, nor does a seed
    that depends on the rank (`set_seed(seed + rank)`, `set_seed(get_rank())`).

    ## Why it is bad
    Data-parallel training assumes every replica starts from the same weights and applies the
    same averaged gradients. Without a seed, each process initializes its Parameters from its
    own random state: under `msrun --worker_num 2` on CPU with MindSpore 2.10, rank 0 and rank 1
    built `nn.Dense(4, 4)` with different weights (parameter sums 0.108 and 2.086), and the
    replicas stay apart for the whole run: in `DATA_PARALLEL` mode a training step moved both
    by the same averaged gradient (-0.838 -> -0.523 and -1.682 -> -1.367). A seed plus the
    rank, common in PyTorch DDP scripts (DDP broadcasts rank 0's weights; MindSpore does not),
    does the same. Nothing fails: the model quietly trains as an
    average of different networks. With `ms.set_seed(1)`, `np.random.seed(1)` or
    `mindspore.dataset.config.set_seed(1)` the ranks built identical weights;
    `parameter_broadcast=True` (data-parallel mode) made them identical once the network was
    compiled, by broadcasting rank 0's Parameters. Loading a checkpoint also makes the loaded
    Parameters agree, but in a program that trains it is not counted: a checkpoint covers only
    what it holds (a new head stays random) and resuming is usually optional. A program that
    loads a checkpoint and never trains (it names no gradient, training wrapper or optimizer of
    MindSpore and calls no `train` or `fit` method: an inference script) is not flagged, nor is a
    program whose scripts all say by their name or folder that they do not train (`eval.py`,
    `predict_*.py`, `export.py`, `test_*.py`, `tests/`) where none of that code trains. Nor is a
    program that makes no weights (a communication demo: `init()`, then `ops.AllReduce` on a
    tensor): none of its modules builds a MindSpore Cell that owns Parameters or holds Cells, a
    Cell of its own that creates Parameters, a `Parameter`, an initializer's values or a loaded
    checkpoint, and none imports anything but MindSpore, numpy and the program's own modules
    (another library may build a network).

    ## Example
    ```python
    from mindspore.communication import init


    def main():
        init()
        net = Net()
    ```

    ## Use instead
    ```python
    import mindspore as ms
    from mindspore.communication import init


    def main():
        init()
        ms.set_seed(1)
        net = Net()
    ```
    """

    code = "MS207"
    symbol = "distributed-without-seed"
    summary = "distributed `init()` in a program that never seeds every rank alike (replicas start apart)"

    def severity(self, settings: Settings) -> Severity:
        return Severity.WARNING

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        if "communication" not in module.text:
            return  # the cheap test: most files never mention it
        bindings = imports_in(module.tree, module.package)
        calls = [
            node
            for node in descendants(module.tree)
            if isinstance(node, ast.Call) and _qualname(node.func, module, bindings) in _INIT
        ]
        if not calls:
            return
        per_rank: list[str] = []
        program: list[ModuleInfo] = []
        for other in project.program_of(module):
            program.append(other)
            seeds = _seeds(other)
            if seeds is _SAME_ON_EVERY_RANK:
                return
            if isinstance(seeds, ast.Call):
                per_rank.append(f"`{ast.unparse(seeds)}` ({other.path.name}:{seeds.lineno})")
        if _infers_from_a_checkpoint(program) or _runs_no_training(module, project):
            return
        if not any(may_make_weights(project, other) for other in program):
            return  # a communication demo: no weights, nothing for a seed to make equal
        message = (
            f"distributed `init()` in a program that seeds each rank differently, {per_rank[0]}: "
            if per_rank
            else "distributed `init()` in a program that never calls `mindspore.set_seed`: "
        )
        for call in calls:
            yield Finding(
                call,
                message + "each replica initializes its weights differently",
                hint="call `mindspore.set_seed(<seed>)` with the same seed on every rank before building the "
                "network, or `set_auto_parallel_context(parameter_broadcast=True)`",
            )


def _seeds(module: ModuleInfo) -> ast.Call | object | None:
    """How the module seeds the weights (memoized by tree): ``_SAME_ON_EVERY_RANK``, the first
    seed that depends on the rank (``set_seed(seed + rank)``, a PyTorch DDP habit: DDP
    broadcasts rank 0's weights, MindSpore does not), or None."""
    return _SEEDED(module.tree, lambda _: _first_seed(module))


def _first_seed(module: ModuleInfo) -> ast.Call | object | None:
    found: ast.Call | object | None = None
    if "seed" in module.text or "broadcast" in module.text:
        bindings = imports_in(module.tree, module.package)
        for node in descendants(module.tree):
            if isinstance(node, ast.Call) and _is_seed(node, module, bindings):
                if not _mentions_rank(node):
                    found = _SAME_ON_EVERY_RANK
                    break
                found = found or node
    return found


def _infers_from_a_checkpoint(program: list[ModuleInfo]) -> bool:
    """Whether the program loads a checkpoint and never trains: every rank then runs the same
    weights, and the seed would only have drawn weights that the checkpoint replaces."""
    uses = [_checkpoint_uses(module) for module in program]
    return any(loads for loads, _ in uses) and not any(trains for _, trains in uses)


_NOT_TRAINING = re.compile(
    r"(^|_)(tests?|eval|evaluate|evaluation|val|validate|validation|predict|prediction|infer|inference|export)(_|$)"
)
"""The names of scripts that do not train: tests, evaluation, prediction, export."""


def _runs_no_training(module: ModuleInfo, project: Project) -> bool:
    """Whether every script that runs ``module`` (itself, or the checked modules that import
    it, to the top) says by its name or folder that it does not train (``eval.py``,
    ``test_distributed.py``, ``tests/...``, ``export.py``), and neither it nor the modules between
    name a gradient, a training wrapper or an optimizer or call ``train`` or ``fit``: replicas
    that never train have no weights to keep alike (they load them, or test something else)."""
    runs = [module]
    for current in runs:  # grows while it is walked
        runs.extend(m for m in project.checked_importers(current) if all(m is not r for r in runs))
    scripts = [m for m in runs if not project.checked_importers(m)]
    return all(_named_not_training(m) for m in scripts) and not any(_checkpoint_uses(m)[1] for m in runs)


def _named_not_training(module: ModuleInfo) -> bool:
    folders = [folder.name.lower() for folder in module.path.parents][: len(module.name.split("."))]
    return _NOT_TRAINING.search(module.path.stem.lower()) is not None or bool({"test", "tests"} & set(folders))


def _checkpoint_uses(module: ModuleInfo) -> tuple[bool, bool]:
    """Whether the module loads a checkpoint, and whether it may train: it names a gradient,
    a training wrapper or an optimizer of MindSpore, or calls a ``train`` or ``fit`` method
    (memoized by tree)."""
    return _USES(module.tree, lambda _: _find_checkpoint_uses(module))


def _find_checkpoint_uses(module: ModuleInfo) -> tuple[bool, bool]:
    loads = trains = False
    bindings = imports_in(module.tree, module.package)
    for node in descendants(module.tree):
        if isinstance(node, ast.Attribute) and node.attr in _TRAINING_METHODS:
            trains = True
        elif isinstance(node, (ast.Name, ast.Attribute)):
            qualname = _qualname(node, module, bindings)
            trains = trains or is_mindspore_name(qualname, *_TRAINING)
            loads = loads or is_mindspore_name(qualname, *_LOADING)
    return loads, trains


def _mentions_rank(call: ast.Call) -> bool:
    """Whether a seed names the rank (``rank``, ``get_rank()``, ``args.rank_id``, ``"RANK_ID"``)."""
    for argument in [*call.args, *(k.value for k in call.keywords if k.arg == "seed")]:
        for node in descendants(argument):
            if isinstance(node, ast.Name):
                text = node.id
            elif isinstance(node, ast.Attribute):
                text = node.attr
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            else:
                continue
            if "rank" in text.lower():
                return True
    return False


def _is_seed(call: ast.Call, module: ModuleInfo, bindings: dict[str, str]) -> bool:
    qualname = _qualname(call.func, module, bindings)
    if qualname in _SEEDS:
        return True
    if qualname is not None and qualname.rsplit(".", 1)[-1] == "set_seed":
        # Another library's helper (mindcv.utils.set_seed calls mindspore.set_seed(seed + rank)
        # with rank 0 unless given one): its body is not read, its name is taken at its word.
        return True
    if not is_mindspore_name(qualname, "set_auto_parallel_context"):
        return False
    broadcast = next((k.value for k in call.keywords if k.arg == "parameter_broadcast"), None)
    return broadcast is not None and not (isinstance(broadcast, ast.Constant) and broadcast.value is False)


def _qualname(expr: ast.expr, module: ModuleInfo, bindings: dict[str, str]) -> str | None:
    """``comm.init`` -> ``mindspore.communication.init`` through the imports anywhere in the module."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    head = module.global_qualname(expr.id) or bindings.get(expr.id)
    return ".".join([head, *reversed(parts)]) if head else None

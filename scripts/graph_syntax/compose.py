"""Random graph programs composed of forms, for the differential tester.

A program is a small package of two modules: ``net.py`` holds the entry (a Cell, the same Cell
compiled through ``value_and_grad``, or a ``@jit`` function) and ``helpers.py``, which
``net.py`` imports, holds module functions, ``@jit`` functions and sub-Cells. Each form of the
program is *placed*: reached from the entry through a chain of containers (a method, a module
function, a ``@jit`` function, a sub-Cell), its body wrapped in a block (a tensor ``if``, a
``for`` loop) or not. Every line written for a placement is owned by its :class:`Site`, so the
compiler's evidence and mslint's findings can be told apart per form.
"""

from __future__ import annotations

import random
import textwrap
from dataclasses import dataclass, field

from graph_syntax.forms import BLOCK_HEADS, HAZARD, IMPORTS, Form

ENTRIES = ("cell", "grad", "jit")
"""A Cell compiled on its own, the Cell compiled through ``value_and_grad``, a ``@jit`` function."""
CONTAINERS = ("method", "function", "jit", "subcell")
"""What holds a form's body besides the entry: ``method`` and ``subcell`` need ``self`` where
they are called; ``function`` and ``jit`` (functions of helpers.py) leave it behind."""
BLOCKS = ("", "branch", "loop")
NET, HELPERS = "net.py", "helpers.py"


@dataclass(frozen=True)
class Placement:
    form: Form
    containers: tuple[str, ...]
    """From the one the entry calls to the one holding the body; () puts the body in the entry."""
    block: str = ""


@dataclass
class Site:
    """Where one placed form landed: the lines it owns, per file of the package."""

    index: int
    placement: Placement
    position: str
    """``entry:container>container/block``: ``cell:method>subcell/branch``, ``jit:inline``."""
    body: dict[str, list[int]] = field(default_factory=dict)
    """File name -> lines of the form's own text (its body, setup and module lines)."""
    scaffold: dict[str, list[int]] = field(default_factory=dict)
    """File name -> lines written to reach the body: definitions, calls, returns, block heads."""
    hazard: tuple[str, int] = ("", 0)
    """File name and line of the form's hazard line."""

    @property
    def form(self) -> Form:
        return self.placement.form

    def owns(self, file: str, line: int) -> bool:
        return line in self.body.get(file, ()) or line in self.scaffold.get(file, ())

    def is_body(self, file: str, line: int) -> bool:
        return line in self.body.get(file, ())


@dataclass
class Package:
    name: str
    entry: str
    sites: list[Site]
    files: dict[str, str]
    """File name inside the package -> source."""


Line = tuple[str, "Site | None", bool]
"""Text, the site owning it (None: the program's own scaffold), whether it is the form's own text."""


@dataclass
class _Def:
    lines: list[Line]


@dataclass
class _Class:
    name: str
    init: list[Line] = field(default_factory=list)
    methods: list[_Def] = field(default_factory=list)


@dataclass
class _Module:
    top: list[Line] = field(default_factory=list)
    functions: list[_Def] = field(default_factory=list)
    classes: list[_Class] = field(default_factory=list)
    written: set[str] = field(default_factory=set)
    """The forms' module texts written in ``top``."""


def random_placement(form: Form, entry: str, rng: random.Random) -> Placement:
    """A chain of zero to two containers that keeps ``self`` in scope where the form needs it (at
    least one for a form that returns: it would end the entry)."""
    containers: list[str] = []
    if form.argument:  # `n` is the entry's own parameter
        return Placement(form, (), rng.choice(BLOCKS))
    has_self = entry != "jit"
    returns = any(line.lstrip().startswith("return") for line in _lines(form.body))
    for _ in range(rng.choice((1, 1, 2) if returns else (0, 1, 1, 2))):
        choices = [c for c in CONTAINERS if has_self or c in ("function", "jit")]
        if form.needs_self:
            choices = [c for c in choices if c in ("method", "subcell")]
        if not choices:
            break
        containers.append(rng.choice(choices))
        has_self = containers[-1] in ("method", "subcell")
    return Placement(form, tuple(containers), rng.choice(BLOCKS))


def random_program(name: str, forms: list[Form], rng: random.Random, size: tuple[int, int] = (2, 3)) -> Package:
    """A package of ``size[0]`` to ``size[1]`` distinct forms drawn from ``forms``, placed at random."""
    entry = rng.choice(ENTRIES)
    pool = [f for f in forms if not (entry == "jit" and f.needs_self) and not (entry == "grad" and f.argument)]
    wanted = rng.randint(*size)
    chosen: list[Form] = []
    for form in rng.sample(pool, len(pool)):  # at most one form that the entry gives an argument
        if len(chosen) == wanted:
            break
        if not (form.argument and any(c.argument for c in chosen)):
            chosen.append(form)
    return compose(name, entry, [random_placement(form, entry, rng) for form in chosen])


def compose(name: str, entry: str, placements: list[Placement]) -> Package:
    """The package that runs each placement's form from ``entry`` (one of :data:`ENTRIES`)."""
    net, helpers, cell = _Module(), _Module(), _Class("Net")
    sites = []
    outputs: list[Line] = []
    imported: list[str] = []
    for index, placement in enumerate(placements):
        containers = placement.containers
        site = Site(index, placement, f"{entry}:{'>'.join(containers) or 'inline'}")
        site.position += f"/{placement.block}" if placement.block else ""
        sites.append(site)
        host: _Class | None = None if entry == "jit" else cell
        module = net
        calls: list[str] = []
        defs: list[_Def] = []
        for depth, kind in enumerate(containers):
            if kind == "method" and host is not None:
                calls.append(f"self.method{index}_{depth}(x)")
                defs.append(_Def([(f"def method{index}_{depth}(self, x):", site, False)]))
                host.methods.append(defs[-1])
            elif kind in ("function", "jit"):
                name_ = f"{kind[0]}{index}_{depth}"
                calls.append(f"{name_}(x)")
                head: list[Line] = [("@ms.jit", site, False)] if kind == "jit" else []
                defs.append(_Def([*head, (f"def {name_}(x):", site, False)]))
                helpers.functions.append(defs[-1])
                imported += [name_] if module is net else []
                host, module = None, helpers
            elif kind == "subcell" and host is not None:
                sub = _Class(f"Sub{index}_{depth}")
                host.init.append((f"self.sub{index}_{depth} = {sub.name}()", site, False))
                calls.append(f"self.sub{index}_{depth}(x)")
                defs.append(_Def([("def construct(self, x):", site, False)]))
                sub.methods.append(defs[-1])
                helpers.classes.append(sub)
                imported += [sub.name] if module is net else []
                host, module = sub, helpers
            else:
                raise ValueError(f"{kind} cannot hold {placement.form.id} in {site.position}")
        if placement.form.module.strip() and placement.form.module not in module.written:
            module.written.add(placement.form.module)  # forms of a family share their module lines
            module.top += [(line, site, True) for line in _lines(placement.form.module)]
        setup = [(line, site, True) for line in _lines(placement.form.setup)]
        if setup and host is None:
            raise ValueError(f"{placement.form.id} needs self, which {site.position} does not have")
        if host is not None:
            host.init += setup
        for outer, inner_call in zip(defs, calls[1:]):
            outer.lines.append((f"    return {inner_call}", site, False))
        form_lines = [
            (f"{'    ' if defs else ''}{text}", owner, own) for text, owner, own in _form_lines(placement, site)
        ]
        if defs:
            defs[-1].lines += [*form_lines, ("    return y", site, False)]
            outputs.append((f"out{index} = {calls[0].replace('(x)', '(x0)')}", site, False))
        else:
            outputs += [("x = x0", site, False), *form_lines, (f"out{index} = y", site, False)]
    outputs.append((f"return {', '.join(f'out{site.index}' for site in sites)}", None, False))
    files = {"__init__.py": ""}
    files[HELPERS] = _write(HELPERS, helpers, [])
    top = [*net.top, *([(f"from .helpers import {', '.join(imported)}", None, False)] if imported else [])]
    argument = next((p.form.argument for p in placements if p.form.argument), "")
    files[NET] = _write(NET, _Module(top=top), _entry(entry, cell, outputs, argument))
    return Package(name, entry, sites, files)


def _form_lines(placement: Placement, site: Site) -> list[Line]:
    """The form's body inside its block."""
    body: list[Line] = [(line, site, True) for line in _lines(placement.form.body)]
    if not placement.block:
        return body
    return [
        ("y = x", site, False),
        (BLOCK_HEADS[placement.block], site, False),
        *((f"    {t}", s, o) for t, s, o in body),
    ]


def _entry(entry: str, cell: _Class, outputs: list[Line], argument: str = "") -> list[Line]:
    """The entry and ``make()``: each form runs on the input, and all results are returned.
    ``call()`` calls the entry on the input (and an ``argument``, see :attr:`Form.argument`, its
    second parameter) as a user's script calls a Cell: ``mslint check`` reads the input's shape
    and dtype, and the argument, from that call, as it reads them from real code; ``make()``
    gives the compiler the same. Under ``value_and_grad`` the Cell is called only through a
    ``@jit`` step function, as a training loop calls it: ``make()`` builds the wrapper into a
    global the step reads, and ``call()`` calls the step, whose input mslint follows into the
    Cell (no input comment). ``make()`` hands the verifier a fresh ``jit`` of the step's Python
    function: the verifier calls ``make()`` once per mode in one process, and a step compiled
    once keeps the network of the first call (a global is a constant of its graph: measured, the
    Parameters of the later networks then never change)."""
    parameters, given = ("x, n", f"_input(), {argument}") if argument else ("x", "_input()")
    if entry == "jit":
        lines: list[Line] = [("@ms.jit", None, False), (f"def entry({parameters}):", None, False)]
        lines += [(f"    {t}", s, o) for t, s, o in [("x0 = x", None, False), *outputs]]
        make = [f"    return entry, ({given},)"]
        called = f"entry({given})"
    else:
        construct = [
            (f"def construct(self, {parameters}):", None, False),
            *_indented([("x0 = x", None, False), *outputs]),
        ]
        lines = _class_lines(cell, construct)
        make = [f"    return Net(), ({given},)"]
        called = f"Net()({given})"
        if entry == "grad":
            make = [
                "    global _grad",
                "    _grad = ms.value_and_grad(Net())",
                "    return ms.jit(_grad_step.__wrapped__), (_input(),)",
            ]
            make += ["", "", "@ms.jit", "def _grad_step(x):", "    return _grad(x)"]
            called = "_grad_step(_input())"
    tail = ["", "", "def make():", *make, "", "", "def _input():"]
    tail.append("    return Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))")
    tail += ["", "", "def call():", f"    return {called}"]
    return [*lines, *((text, None, False) for text in tail)]


def _class_lines(cls: _Class, construct: list[Line] | None = None) -> list[Line]:
    lines: list[Line] = [
        (f"class {cls.name}(nn.Cell):", None, False),
        ("    def __init__(self):", None, False),
    ]
    lines += [("        super().__init__()", None, False), *_indented(_indented(cls.init))]
    for method in [*cls.methods, *([_Def(construct)] if construct else [])]:
        lines += [("", None, False), *_indented(method.lines)]
    return lines


def _indented(lines: list[Line]) -> list[Line]:
    return [(f"    {t}", s, o) for t, s, o in lines]


def _write(file: str, module: _Module, tail: list[Line]) -> str:
    """The module's text; each line written for a site is recorded in it."""
    lines: list[Line] = [(line, None, False) for line in IMPORTS] + module.top
    for function in module.functions:
        lines += [("", None, False), ("", None, False), *function.lines]
    for cls in module.classes:
        lines += [("", None, False), ("", None, False), *_class_lines(cls)]
    if tail:
        lines += [("", None, False), ("", None, False), *tail]
    for number, (text, site, own) in enumerate(lines, start=1):
        if site is None:
            continue
        (site.body if own else site.scaffold).setdefault(file, []).append(number)
        if (
            own
            and (text.rstrip().endswith(HAZARD) or site.hazard == ("", 0))
            and text.strip()
            and _is_body_text(text, site)
        ):
            site.hazard = (file, number)
    return "\n".join(text for text, _, _ in lines) + "\n"


def _is_body_text(text: str, site: Site) -> bool:
    """Whether ``text`` is a line of the form's body (not its setup or module lines)."""
    return text.strip() in {line.strip() for line in _lines(site.placement.form.body)}


def _lines(text: str) -> list[str]:
    return textwrap.dedent(text).strip("\n").splitlines() if text.strip() else []

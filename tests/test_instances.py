"""What the program's instances give a constructor (``mslint.model.instances``): a flag kept on
``self`` is the constant the instances give it, so the compiler prunes what it skips; where the
instances are not all known, nothing is assumed (measured on 2.10: rules/unsupported-attribute-
in-graph/good_pruned_by_instances.py compiles, bad_instances.py fails)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

BLOCK = """\
from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, attention=True):
        super(Block, self).__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)
        return self.proj(x)

"""


def severity(tmp_path: Path, program: str, others: dict[str, str] | None = None) -> str | None:
    """The severity of the finding on ``self.attn``, where ``program`` follows the class."""
    path = tmp_path / "net.py"
    path.write_text(BLOCK + program, encoding="utf-8")
    for name, text in (others or {}).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = [d for d in check_files(sorted(tmp_path.glob("*.py")), Settings()).diagnostics if "`attn`" in d.message]
    return found[0].severity.name if found else None


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("net = Block(8, attention=False)\n", None),  # the one instance prunes the branch
        ("net = Block(8, False)\n", None),  # given by position
        ("a = Block(8, attention=False)\nb = Block(16, attention=False)\n", None),  # every instance agrees
        ("FLAG = False\nnet = Block(8, attention=FLAG)\n", None),  # a module constant
        (  # a module constant, read in a parent's __init__
            "FLAG = False\n\nclass Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
            "        self.block = Block(8, attention=FLAG)\n",
            None,
        ),
        (  # a local of the same name hides it
            "FLAG = False\n\nclass Net(nn.Cell):\n    def __init__(self, on):\n        super().__init__()\n"
            "        FLAG = on\n        self.block = Block(8, attention=FLAG)\n",
            "WARNING",
        ),
        ("net = Block(8, attention=True)\n", "ERROR"),  # the one instance reads it
        ("net = Block(8)\n", "ERROR"),  # the default
        ("a = Block(8, attention=False)\nb = Block(8)\n", "ERROR"),  # instances differ: `b` reads it
        ("", "WARNING"),  # no instance: the class as before
        ("import sys\nnet = Block(8, attention=len(sys.argv) > 1)\n", "WARNING"),  # not a constant here
        ("kw = {'attention': False}\nnet = Block(8, **kw)\n", "WARNING"),  # a spread gives anything
        ("net = Block(8, attention=False)\nREGISTRY = {'block': Block}\nREGISTRY[input()]()\n", "WARNING"),  # any name
        ("net = Block(8, attention=False)\n\nclass Big(Block):\n    pass\n", "WARNING"),  # a subclass's
        ("net = Block(8, attention=False)\nassert isinstance(net, Block)\n", None),  # a type test builds none
        ("net = Block(8, attention=False)\nBlock = register(Block)\n", "WARNING"),  # handed to a registry
    ],
)
def test_a_flag_the_instances_give_decides_the_branch(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, program) == expected


@pytest.mark.parametrize(
    ("program", "settings", "expected"),
    [
        ("from settings import FLAG\nnet = Block(8, attention=FLAG)\n", "FLAG = False\n", None),
        ("from settings import FLAG as ON\nnet = Block(8, attention=ON)\n", "FLAG = False\n", None),
        ("from settings import FLAG\nnet = Block(8, attention=FLAG)\n", "FLAG = True\n", "ERROR"),
        # bound again in the module that imports it, or in the one it comes from
        ("from settings import FLAG\nFLAG = True\nnet = Block(8, attention=FLAG)\n", "FLAG = False\n", "ERROR"),
        ("from settings import FLAG\nnet = Block(8, attention=FLAG)\n", "FLAG = False\nFLAG = True\n", "WARNING"),
    ],
)
def test_a_module_constant_imported_by_name_decides_the_branch(
    tmp_path: Path, program: str, settings: str, expected: str | None
) -> None:
    assert severity(tmp_path, program, {"settings.py": settings}) == expected


@pytest.mark.parametrize(
    ("program", "others", "expected"),
    [
        ("import settings\nnet = Block(8, attention=settings.FLAG)\n", {}, None),
        ("import settings as cfg\nnet = Block(8, attention=cfg.FLAG)\n", {}, None),
        ("import settings\nnet = Block(8, attention=settings.ON)\n", {}, "WARNING"),  # no such constant
        # written as a field, here or by another module of the project
        ("import settings\nsettings.FLAG = True\nnet = Block(8, attention=settings.FLAG)\n", {}, "WARNING"),
        (
            "import settings\nnet = Block(8, attention=settings.FLAG)\n",
            {"cli.py": "import settings\n\nsettings.FLAG = True\n"},
            "WARNING",
        ),
        (
            "import settings\nnet = Block(8, attention=settings.FLAG)\n",
            {"cli.py": "import settings\n\nsetattr(settings, 'FLAG', 1)\n"},
            "WARNING",
        ),
    ],
)
def test_a_constant_of_an_imported_module_decides_the_branch(
    tmp_path: Path, program: str, others: dict[str, str], expected: str | None
) -> None:
    """The fusion ResNet's ``resnet101(rgbd=args.rgbd)``, where ``from run.run_fusion import args``
    names a module of constants."""
    assert severity(tmp_path, program, {"settings.py": "FLAG = False\n", **others}) == expected


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("net = Block(8, attention=False)\nwidth = Block.WIDTHS[0]\n", None),  # a value of the class body
        ("net = Block(8, attention=False)\nx = Block.scaled(2)\n", None),  # a static method
        ("def run(net: Block) -> Block:\n    return net\n\nrun(Block(8, attention=False))\n", None),
        ("net: Block = Block(8, attention=False)\n", None),  # annotations name it, build nothing
        ("net = Block(8, attention=False)\nforward = Block.construct\n", "WARNING"),  # a method, unbound
        ("net = Block(8, attention=False)\nmade = Block.make(8)\n", "WARNING"),  # a classmethod may build
    ],
)
def test_naming_the_class_without_building_it_keeps_its_instances(
    tmp_path: Path, program: str, expected: str | None
) -> None:
    body = (
        "    WIDTHS = (8, 16)\n\n    @staticmethod\n    def scaled(x):\n        return x * 2\n\n"
        "    @classmethod\n    def make(cls, dim):\n        print(cls)\n        return cls(dim)\n\n"
    )
    classes = BLOCK.replace("    def __init__", body + "    def __init__", 1)
    path = tmp_path / "net.py"
    path.write_text(classes + program, encoding="utf-8")
    found = [d for d in check_files([path], Settings()).diagnostics if "`attn`" in d.message]
    assert (found[0].severity.name if found else None) == expected


def test_a_factory_nothing_calls_builds_nothing(tmp_path: Path) -> None:
    """``resnet50(**kwargs)``, never called, beside the ``resnet101`` a script calls, both through
    ``_resnet``: only the instance the program builds counts."""
    factories = (
        "def _block(dim, attention, **kwargs):\n    return Block(dim, attention, **kwargs)\n\n\n"
        "def small(attention=False, **kwargs):\n    return _block(8, attention, **kwargs)\n\n\n"
        "def large(attention=False, **kwargs):\n    return _block(16, attention, **kwargs)\n\n\n"
    )
    assert severity(tmp_path, factories + "net = small()\n") is None
    assert severity(tmp_path, factories + "net = small(attention=True)\n") == "ERROR"
    assert severity(tmp_path, factories) == "WARNING"  # no instance: the class as before


def test_the_instances_of_every_module_count(tmp_path: Path) -> None:
    others = {"train.py": "from net import Block\n\nnet = Block(8)\n"}
    assert severity(tmp_path, "net = Block(8, attention=False)\n", others) == "ERROR"  # train.py's reads it
    others = {"train.py": "import net as models\n\nnet = models.Block(8, attention=False)\n"}
    assert severity(tmp_path, "", others) is None


GATED = """\
from mindspore import nn, ops


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4)

    def construct(self, x, gate=None):
        if gate is not None:
            x = x * self.gate_proj(gate)
        return self.proj(x)


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        return {calls}
"""


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        ("self.block(x, None)", None),  # every call gives None: the compiler folds the test
        ("self.block(x, gate=None)", None),
        ("self.block(x, x)", "ERROR"),  # a tensor: the branch is compiled
        ("self.block(x, None) + self.block(x, x)", "ERROR"),  # one call compiles it
        ("self.block(x, 3)", "ERROR"),  # a number is not None either
    ],
)
def test_a_none_argument_decides_an_is_none_test(tmp_path: Path, calls: str, expected: str | None) -> None:
    path = tmp_path / "net.py"
    path.write_text(GATED.format(calls=calls) + "\n\nEncoder()(ops.ones((2, 4)))\n", encoding="utf-8")
    found = [d for d in check_files([path], Settings()).diagnostics if "`gate_proj`" in d.message]
    assert (found[0].severity.name if found else None) == expected


NET = """\
class Net(nn.Cell):
    def __init__(self, attention=True):
        super().__init__()
        self.block = Block(8, attention=attention)

"""


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (NET + "net = Net(attention=False)\n", None),  # Block's instance gets what Net's gives
        (NET + "net = Net()\n", "ERROR"),  # Net's default
        (NET + "a = Net(attention=False)\nb = Net()\n", "WARNING"),  # Net's instances differ
        (NET, "WARNING"),  # no instance of Net
        (NET + "net = Net(attention=False)\nREGISTRY = {'net': Net}\nREGISTRY[input()]()\n", "WARNING"),  # any name
        (
            NET.replace("        self.block", "        attention = not attention\n        self.block")
            + "net = Net(attention=False)\n",
            "WARNING",  # rebound: no longer what the instances give
        ),
        (
            NET + "class Model(nn.Cell):\n    def __init__(self, flag):\n        super().__init__()\n"
            "        self.net = Net(flag)\n\n\nmodel = Model(False)\n",
            None,  # followed up the parents
        ),
        (
            NET.replace("attention=True)", "attention=True, depth=0)")
            + "        if depth:\n            self.inner = Net(attention, depth - 1)\n\n\n"
            "net = Net(attention=False, depth=1)\n",
            "WARNING",  # a cycle of parents is not followed
        ),
    ],
)
def test_a_parent_passes_on_what_its_instances_give(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, program) == expected


MAKE = "def make(attention=False):\n    return Block(8, attention)\n\n\n"
SMALL = "def small(**kwargs):\n    return Block(8, **kwargs)\n\n\n"


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (MAKE + "net = make()\n", None),  # the factory's default
        (MAKE + "net = make(attention=True)\n", "ERROR"),
        (MAKE, "WARNING"),  # a factory nothing calls
        (SMALL + "net = small(attention=False)\n", None),  # its callers' keywords, passed on
        (SMALL + "net = small()\n", "ERROR"),  # Block's default
        (SMALL + "a = small(attention=False)\nb = small()\n", "WARNING"),  # one caller omits it
        (SMALL + "cfg = {'attention': False}\nnet = small(**cfg)\n", "WARNING"),  # a caller spreads a dict
        (SMALL + "net = small(attention=False)\nFACTORIES = [small]\n", "WARNING"),  # handed on
        ("@register\n" + SMALL + "net = small(attention=False)\n", "WARNING"),  # registered where mslint cannot see
        (
            SMALL.replace("    return", "    kwargs.pop('attention', None)\n    return")
            + "net = small(attention=False)\n",
            "WARNING",  # what it spreads is not what it was given
        ),
        (SMALL + "def tiny(**kwargs):\n    return small(**kwargs)\n\n\nnet = tiny(attention=False)\n", None),
        ("def make(*args):\n    return Block(8, *args)\n\n\nnet = make(False)\n", None),  # `*args` passed on
        ("def make(*args):\n    return Block(8, *args)\n\n\na = make(False)\nb = make()\n", "WARNING"),
    ],
)
def test_a_factory_builds_what_its_callers_ask_for(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, program) == expected


def test_a_factory_of_another_module_is_followed(tmp_path: Path) -> None:
    others = {"train.py": "from net import small\n\nnet = small(attention=False)\n"}
    assert severity(tmp_path, SMALL, others) is None
    others = {"train.py": "from net import small\n\nnet = small(attention=True)\n"}
    assert severity(tmp_path, SMALL, others) == "ERROR"


def test_a_chain_of_parents_too_long_to_follow_says_nothing(tmp_path: Path) -> None:
    links = [
        f"class Link{i}(nn.Cell):\n    def __init__(self, attention):\n        super().__init__()\n"
        f"        self.inner = {f'Link{i + 1}(attention)' if i < 99 else 'Block(8, attention=attention)'}\n\n\n"
        for i in range(100)
    ]
    assert severity(tmp_path, "".join(links) + "net = Link0(False)\n") == "WARNING"
    assert severity(tmp_path, "".join(links[90:]).replace("Link90", "Link") + "net = Link(False)\n") is None


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("LAYERS = {'block': Block}\nnet = LAYERS['block'](8, attention=False)\n", None),  # looked up by a literal
        ("LAYERS = {'block': Block}\nnet = LAYERS['block'](8)\n", "ERROR"),
        ("LAYERS = {}\nLAYERS['block'] = Block\nnet = LAYERS.get('block')(8, attention=False)\n", None),
        ("LAYERS = {'block': Block}\nnet = LAYERS['block'](8, attention=False)\nLAYERS['block'](8)\n", "ERROR"),
        ("LAYERS = dict()\nLAYERS['block'] = Block\nassert 'block' in LAYERS\nnet = Block(8, attention=False)\n", None),
        ("import sys\nLAYERS = {'block': Block}\nnet = LAYERS[sys.argv[1]](8, attention=False)\n", "WARNING"),
        (
            "LAYERS = {'block': Block}\nnet = Block(8, attention=False)\nfor cls in LAYERS.values():\n    cls(8)\n",
            "WARNING",
        ),
        ("LAYERS = {}\nkey = 'block'\nLAYERS[key] = Block\nnet = Block(8, attention=False)\n", "WARNING"),  # its key
        ("LAYERS = {'block': Block}\nLAYERS = {}\nnet = Block(8, attention=False)\n", "WARNING"),  # not one dict
        (
            "def layers():\n    return {'block': Block}\n\n\nnet = Block(8, attention=False)\n",
            "WARNING",
        ),  # not a registry
    ],
)
def test_a_dict_of_classes_builds_what_its_lookups_ask_for(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, program) == expected


REGISTER = """\
MODELS = {}


def register_model(fn):
    MODELS[fn.__name__] = fn
    return fn


def create_model(name, **kwargs):
    return MODELS[name](**kwargs)


@register_model
def small(**kwargs):
    return Block(8, **kwargs)


"""


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (REGISTER + "net = create_model('small', attention=False)\n", None),  # the creator's caller asks for it
        (REGISTER + "net = create_model('small')\n", "ERROR"),  # Block's default
        (REGISTER + "net = create_model(name='small', attention=False)\n", None),
        (REGISTER + "net = MODELS['small'](attention=False)\n", None),  # looked up directly
        (REGISTER + "import sys\nnet = create_model(sys.argv[1], attention=False)\n", "WARNING"),  # any entry
        (REGISTER + "net = create_model('tiny')\n", "WARNING"),  # never built: the class as before
        (
            REGISTER.replace("create_model(name, **kwargs)", "create_model(name='small', **kwargs)")
            + "net = create_model(attention=False)\n",
            "WARNING",  # a name the call does not write
        ),
        (REGISTER + "a = create_model('small', attention=False)\nb = create_model('tiny')\n", "WARNING"),  # joined
        (REGISTER + "net = create_model('small', attention=False)\nprint(list(MODELS.items()))\n", "WARNING"),
        (REGISTER + "net = create_model('small', attention=False)\nbuild = create_model\n", "WARNING"),
        (
            REGISTER.replace(
                "    return MODELS[name](**kwargs)", "    model = MODELS[name]\n    return model(**kwargs)"
            )
            + "net = create_model('small', attention=False)\n",
            None,  # the entry kept in a local, then called
        ),
        (
            REGISTER.replace(
                "    MODELS[fn.__name__] = fn", "    model_name = fn.__name__\n    MODELS[model_name] = fn"
            )
            + "net = create_model('small', attention=False)\n",
            None,
        ),
        (
            REGISTER.replace(
                "    return MODELS[name]",
                "    kwargs = {k: v for k, v in kwargs.items() if v}\n    return MODELS[name]",
            )
            + "net = create_model('small', attention=False)\n",
            "WARNING",  # what it spreads is not what it was given
        ),
        (
            REGISTER.replace("    return fn", "    return wrap(fn)") + "net = create_model('small', attention=False)\n",
            "WARNING",  # the decorator hands it on
        ),
        (
            REGISTER.replace("MODELS[fn.__name__] = fn", "MODELS[fn.__name__.lower()] = fn")
            + "net = create_model('small', attention=False)\n",
            "WARNING",  # registered under a name mslint does not know
        ),
    ],
)
def test_a_registered_factory_builds_what_its_lookups_ask_for(
    tmp_path: Path, program: str, expected: str | None
) -> None:
    assert severity(tmp_path, program) == expected


GETTER = REGISTER + "def model_entrypoint(name):\n    return MODELS[name]\n\n\n"


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (GETTER + "net = small(attention=False)\n", None),  # the getter is never called: no lookup
        (GETTER + "net = model_entrypoint('small')(attention=False)\n", None),  # a lookup by its key
        (GETTER + "net = model_entrypoint(name='small')(attention=False)\n", None),
        (GETTER + "net = model_entrypoint('small')()\n", "ERROR"),  # Block's default
        (GETTER + "make = model_entrypoint('small')\nnet = make(attention=False)\n", "WARNING"),  # not a creator's
        (
            GETTER.replace("return MODELS[name](**kwargs)", "return model_entrypoint(name)(**kwargs)")
            + "net = create_model('small', attention=False)\n",
            None,  # a creator through the getter
        ),
        (GETTER + "net = small(attention=False)\nget = model_entrypoint\n", "WARNING"),  # handed on
        (GETTER + "net = small(attention=False)\nprint(model_entrypoint(input()))\n", "WARNING"),  # returned
        (GETTER + "net = small(attention=False)\nmodel_entrypoint(input())()\n", "WARNING"),  # any entry
        (
            GETTER.replace("def model_entrypoint(name):", "def model_entrypoint(name, strict=True):")
            + "net = small(attention=False)\n",
            "WARNING",  # not a getter: what else it does with the entry is not read
        ),
    ],
)
def test_a_registry_getter_looks_up_at_its_calls(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, program) == expected


def test_a_registry_of_another_module_is_followed(tmp_path: Path) -> None:
    registry = REGISTER[: REGISTER.index("@register_model")]
    model = "from registry import register_model\n\n\n@register_model\n" + SMALL
    train = "from registry import create_model\n\nnet = create_model('small', attention={})\n"
    assert severity(tmp_path, model, {"registry.py": registry, "train.py": train.format(False)}) is None
    assert severity(tmp_path, model, {"registry.py": registry, "train.py": train.format(True)}) == "ERROR"
    lookup = "from registry import MODELS\n\nfor name in MODELS:\n    MODELS[name]()\n"
    others = {"registry.py": registry, "train.py": train.format(False), "all.py": lookup}
    assert severity(tmp_path, model, others) == "WARNING"


FROM_CONFIG = BLOCK.replace(
    "    def construct",
    "    @classmethod\n    def from_config(cls, dim, attention=False):\n"
    "        return cls(dim, attention=attention)\n\n"
    "    def construct",
)


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("net = Block.from_config(8)\n", None),  # the classmethod's default
        ("net = Block.from_config(8, attention=False)\n", None),
        ("net = Block.from_config(8, True)\n", "ERROR"),
        ("net = Block.from_config(8)\nother = Block(8)\n", "ERROR"),  # instances differ: `other` reads it
        ("net = Block.from_config(8)\nagain = net.from_config(8, True)\n", "WARNING"),  # a receiver not known
        ("build = Block.from_config\nnet = build(8, True)\n", "WARNING"),  # handed on
        ("class Big(Block):\n    pass\n\n\nnet = Big.from_config(8)\n", "WARNING"),  # a subclass's
        ("", "WARNING"),  # no instance
    ],
)
def test_a_classmethod_builds_what_its_callers_ask_for(tmp_path: Path, program: str, expected: str | None) -> None:
    path = tmp_path / "net.py"
    path.write_text(FROM_CONFIG + program, encoding="utf-8")
    found = [d for d in check_files([path], Settings()).diagnostics if "`attn`" in d.message]
    assert (found[0].severity.name if found else None) == expected


def test_a_classmethod_that_reads_cls_otherwise_is_not_followed(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    logged = FROM_CONFIG.replace("        return cls(", "        print(cls)\n        return cls(")
    path.write_text(logged + "net = Block.from_config(8)\n", encoding="utf-8")
    found = [d for d in check_files([path], Settings()).diagnostics if "`attn`" in d.message]
    assert [d.severity.name for d in found] == ["WARNING"]


CONFIGURED = BLOCK.replace(
    "    def construct",
    "    @classmethod\n    def from_config(cls, cfg):\n        return cls(cfg['dim'], attention=cfg['attention'])\n\n"
    "    def construct",
)
HEAD = "class Head(nn.Cell):\n    def __init__(self, opts):\n        super().__init__()\n" + (
    "        self.block = Block(opts.dim, attention=opts.attention)\n\n\n"
)


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("CONFIG = {'dim': 8, 'attention': False}\nnet = Block.from_config(CONFIG)\n", None),  # a module's dict
        ("net = Block.from_config({'dim': 8, 'attention': False})\n", None),  # written where it is passed
        ("net = Block.from_config(dict(dim=8, attention=False))\n", None),
        ("CONFIG = {'dim': 8, 'attention': True}\nnet = Block.from_config(CONFIG)\n", "ERROR"),
        ("CONFIG = {'dim': 8}\nnet = Block.from_config(CONFIG)\n", "WARNING"),  # no such field
        ("import sys\nnet = Block.from_config({'dim': 8, 'attention': len(sys.argv) > 1})\n", "WARNING"),
        (
            "CONFIG = {'dim': 8, 'attention': False}\nCONFIG['attention'] = True\nnet = Block.from_config(CONFIG)\n",
            "WARNING",  # changed
        ),
        (
            "CONFIG = {'dim': 8, 'attention': False}\nconfig = CONFIG\nnet = Block.from_config(CONFIG)\n",
            "WARNING",  # an alias may change it
        ),
        (
            "CONFIG = {'dim': 8, 'attention': False}\nupdate(CONFIG)\nnet = Block.from_config(CONFIG)\n",
            "WARNING",  # handed to code that may change it
        ),
        (
            "CONFIG = {'dim': 8, 'attention': False}\n\n\ndef main(CONFIG):\n"
            "    return Block.from_config(CONFIG)\n\n\nnet = main({'attention': True})\n",
            "WARNING",  # a parameter of the same name
        ),
        (
            "CONFIG = {'dim': 8, 'attention': False}\nassert CONFIG['dim'] == 8\nnet = Block.from_config(CONFIG)\n",
            None,  # read for a field
        ),
    ],
)
def test_a_configuration_of_literals_gives_its_fields(tmp_path: Path, program: str, expected: str | None) -> None:
    path = tmp_path / "net.py"
    path.write_text(CONFIGURED + program, encoding="utf-8")
    found = [d for d in check_files([path], Settings()).diagnostics if "`attn`" in d.message]
    assert (found[0].severity.name if found else None) == expected


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("from types import SimpleNamespace\n\nnet = Head(SimpleNamespace(dim=8, attention=False))\n", None),
        ("import argparse\n\nOPTS = argparse.Namespace(dim=8, attention=True)\nnet = Head(OPTS)\n", "ERROR"),
        (
            "import argparse\n\nOPTS = argparse.Namespace(dim=8, attention=False)\nOPTS.attention = True\n"
            "net = Head(OPTS)\n",
            "WARNING",
        ),
        ("net = Head(make_options())\n", "WARNING"),  # not written as literals
    ],
)
def test_a_namespace_of_literals_gives_its_fields(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, HEAD + program) == expected


@pytest.mark.parametrize(
    ("train", "expected"),
    [
        ("import net\n\nmodel = getattr(net, 'Block')(8, attention=False)\n", None),  # a literal name
        ("import net\n\nmodel = getattr(net, 'Block')(8)\n", "ERROR"),
        ("import sys\n\nimport net\n\nmodel = getattr(net, sys.argv[1])(8, attention=False)\n", "WARNING"),
        ("import net\n\nmodel = getattr(net, 'Block')(8, attention=False)\nbuild = getattr(net, 'Block')\n", "WARNING"),
        ("import net\n\nmodel = getattr(net, 'Block')(8, attention=False)\nother = getattr(net, 'Other')(8)\n", None),
    ],
)
def test_a_class_looked_up_on_its_module_by_name(tmp_path: Path, train: str, expected: str | None) -> None:
    assert severity(tmp_path, "", {"train.py": train}) == expected


def test_a_module_that_reads_its_own_names_builds_anything(tmp_path: Path) -> None:
    program = "net = Block(8, attention=False)\nmodel = globals()['Block'](8)\n"
    assert severity(tmp_path, program) == "WARNING"


def test_a_lookup_by_any_name_on_its_module_builds_anything(tmp_path: Path) -> None:
    train = {"train.py": "import sys\n\nimport net\n\nmodel = getattr(net, sys.argv[1])(8)\n"}
    assert severity(tmp_path, "net = Block(8, attention=False)\n", train) == "WARNING"
    train = {"train.py": "import sys\n\nimport net\n\nvalue = getattr(sys, 'argv')\n"}
    assert severity(tmp_path, "net = Block(8, attention=False)\n", train) is None  # another module's


def test_a_configuration_kept_is_not_read(tmp_path: Path) -> None:
    built = "from types import SimpleNamespace\n\nnet = Head(SimpleNamespace(dim=8, attention=False))\n"
    assert severity(tmp_path, HEAD + built) is None
    kept = HEAD.replace("        self.block", "        self.opts = opts\n        self.block")
    assert severity(tmp_path, kept + built) == "WARNING"  # kept, where anything may change it


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (
            "from types import SimpleNamespace\ncfg = SimpleNamespace(attention=False)\nm = Block(8, cfg.attention)\n",
            None,
        ),
        ("if __name__ == '__main__':\n    cfg = {'attention': False}\n    net = Block(8, cfg['attention'])\n", None),
        ("def main():\n    cfg = dict(attention=False)\n    net = Block(8, attention=cfg['attention'])\n", None),
        ("cfg = {'attention': True}\nnet = Block(8, attention=cfg['attention'])\n", "ERROR"),  # it reads the branch
        ("cfg = {'attention': False}\ncfg['attention'] = True\nnet = Block(8, cfg['attention'])\n", "WARNING"),
        ("cfg = {'attention': False}\nsetup(cfg)\nnet = Block(8, cfg['attention'])\n", "WARNING"),  # handed on first
        (  # the default of an option, as a plain run of the program parses it
            "import argparse\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--attention', type=int, default=0)\nargs = parser.parse_args()\n"
            "net = Block(8, attention=args.attention)\n",
            None,
        ),
        (  # a flag's default, options parsed by a helper of the module
            "import argparse\n\ndef parse_args():\n    parser = argparse.ArgumentParser()\n"
            "    parser.add_argument('--attention', action='store_true')\n    return parser.parse_args()\n\n"
            "def main():\n    args = parse_args()\n    net = Block(8, attention=args.attention)\n",
            None,
        ),
        (
            "import argparse\nparser = argparse.ArgumentParser()\n"
            "parser.add_argument('--attention', action='store_false')\nargs = parser.parse_args()\n"
            "net = Block(8, attention=args.attention)\n",
            "ERROR",
        ),
        (  # a YAML file the program opens by a literal path
            "import yaml\nwith open('cfg.yaml') as f:\n    cfg = yaml.safe_load(f)\n"
            "net = Block(8, attention=cfg['model']['attention'])\n",
            None,
        ),
        ("import json\ncfg = json.load(open('cfg.json'))\nnet = Block(8, attention=cfg['attention'])\n", "ERROR"),
    ],
)
def test_a_setup_of_the_program_gives_the_flag(tmp_path: Path, program: str, expected: str | None) -> None:
    (tmp_path / "cfg.yaml").write_text("model:\n  attention: false\n", encoding="utf-8")
    (tmp_path / "cfg.json").write_text('{"attention": true}\n', encoding="utf-8")
    assert severity(tmp_path, program) == expected


PARENT = (
    "from functools import partial\n\n\nclass Net(nn.Cell):\n"
    "    def __init__(self, block=partial(Block, attention=False)):\n        super().__init__()\n"
    "        self.block = block(8)\n\n"
)


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("from functools import partial\nmake = partial(Block, attention=False)\nnet = make(8)\n", None),
        ("from functools import partial\nmake = partial(Block, 8)\nnet = make(attention=False)\n", None),
        ("import functools\nmake = functools.partial(Block, attention=True)\nnet = make(8)\n", "ERROR"),
        (
            "from functools import partial\nmake = partial(Block, attention=True)\nnet = make(8, attention=False)\n",
            None,
        ),
        ("from functools import partial\nmake = partial(Block, attention=False)\nnet = make(8, True)\n", "ERROR"),
        (PARENT + "net = Net()\n", None),  # a parameter's default
        (PARENT.replace("=False", "=True") + "net = Net()\n", "ERROR"),
        (  # the partial handed on: it may be called anywhere
            "from functools import partial\nmake = partial(Block, attention=False)\nnet = make(8)\nMAKERS = [make]\n",
            "WARNING",
        ),
        (  # rebound: the name may hold something else where it is called
            "from functools import partial\nmake = partial(Block, attention=False)\nnet = make(8)\n"
            "make = partial(Block, attention=True)\nnet = make(8)\n",
            "WARNING",
        ),
        (PARENT.replace("block(8)", "block(8)\n        self.other = block") + "net = Net()\n", "WARNING"),
    ],
)
def test_a_partial_builds_its_class_with_its_arguments_first(
    tmp_path: Path, program: str, expected: str | None
) -> None:
    assert severity(tmp_path, program) == expected


LAYERS = "LAYERS = {'block': Block, 'dense': nn.Dense}\n"


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (LAYERS + "ARCH = 'block'\nnet = LAYERS[ARCH](8, attention=False)\n", None),  # a module constant
        (LAYERS + "ARCH = 'block'\nnet = LAYERS[ARCH](8)\n", "ERROR"),
        (LAYERS + "ARCH = 'dense'\nnet = LAYERS[ARCH](8, 8)\n", "WARNING"),  # Block never built: the class
        (LAYERS + "CFG = {'layer': 'block'}\nnet = LAYERS[CFG['layer']](8, attention=False)\n", None),
        (  # an option's default, through a local of the function
            "import argparse\n" + LAYERS + "def main():\n    parser = argparse.ArgumentParser()\n"
            "    parser.add_argument('--arch', default='block')\n    args = parser.parse_args()\n"
            "    arch = args.arch\n    return LAYERS[arch](8, attention=False)\n",
            None,
        ),
        (REGISTER + "ARCH = 'small'\nnet = create_model(ARCH, attention=False)\n", None),  # a creator's caller
        (REGISTER + "ARCH = 'small'\nnet = create_model(ARCH)\n", "ERROR"),
        (  # a YAML file's field, given a creator
            REGISTER + "import yaml\nwith open('cfg.yaml') as f:\n    cfg = yaml.safe_load(f)\n"
            "net = create_model(cfg['model']['name'], attention=False)\n",
            None,
        ),
        (LAYERS + "import sys\nnet = LAYERS[sys.argv[1]](8, attention=False)\n", "WARNING"),  # any entry
        (LAYERS + "def build(arch):\n    return LAYERS[arch.lower()](8, attention=False)\n", "WARNING"),
    ],
)
def test_a_registry_key_given_by_a_constant_or_a_configuration(
    tmp_path: Path, program: str, expected: str | None
) -> None:
    (tmp_path / "cfg.yaml").write_text("model:\n  name: small\n", encoding="utf-8")
    assert severity(tmp_path, program) == expected


def test_a_lookup_on_a_module_by_a_constant_name(tmp_path: Path) -> None:
    train = "import net\n\nARCH = 'Block'\nmodel = getattr(net, ARCH)(8, attention={})\n"
    assert severity(tmp_path, "", {"train.py": train.format(False)}) is None
    assert severity(tmp_path, "", {"train.py": train.format(True)}) == "ERROR"
    train = "import sys\nimport net\n\nmodel = getattr(net, sys.argv[1])(8, attention=False)\n"
    assert severity(tmp_path, "", {"train.py": train}) == "WARNING"


CONFIG_CLASS = "class Config:\n    dim = 8\n    attention = False\n\n\n"
DATACLASS = (
    "from dataclasses import dataclass\n\n\n@dataclass\nclass Config:\n"
    "    dim: int = 8\n    attention: bool = True\n\n\n"
)
NET = (
    "class Net(nn.Cell):\n    def __init__(self, cfg):\n        super().__init__()\n"
    "        self.block = Block(cfg.dim, attention=cfg.attention)\n\n\n"
)


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (CONFIG_CLASS + "cfg = Config()\nnet = Block(cfg.dim, attention=cfg.attention)\n", None),
        (CONFIG_CLASS.replace("False", "True") + "cfg = Config()\nnet = Block(8, attention=cfg.attention)\n", "ERROR"),
        (CONFIG_CLASS + NET + "net = Net(Config())\n", None),  # passed to a constructor that reads its fields
        (CONFIG_CLASS + "def main():\n    cfg = Config()\n    return Block(cfg.dim, attention=cfg.attention)\n", None),
        (DATACLASS + NET + "net = Net(Config(attention=False))\n", None),
        (DATACLASS + NET + "net = Net(Config(8, False))\n", None),  # by position, in field order
        (DATACLASS + NET + "net = Net(Config())\n", "ERROR"),  # the field's default
        (  # a method may change what an instance holds
            CONFIG_CLASS.replace(
                "    attention = False\n", "    attention = False\n\n    def on(self):\n        pass\n"
            )
            + "cfg = Config()\nnet = Block(8, attention=cfg.attention)\n",
            "WARNING",
        ),
        (  # the class attribute changed
            CONFIG_CLASS + "Config.attention = True\ncfg = Config()\nnet = Block(8, attention=cfg.attention)\n",
            "WARNING",
        ),
        (  # a subclass may hold anything
            CONFIG_CLASS + "class Big(Config):\n    attention = True\n\n\ncfg = Config()\n"
            "net = Block(8, attention=cfg.attention)\n",
            "WARNING",
        ),
        (  # a field written on the instance
            CONFIG_CLASS + "cfg = Config()\ncfg.attention = True\nnet = Block(8, attention=cfg.attention)\n",
            "WARNING",
        ),
    ],
)
def test_a_configuration_class_instance_gives_its_fields(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, program) == expected


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("sizes = (8, False)\nnet = Block(*sizes)\n", None),  # a module constant
        ("net = Block(*(8, False))\n", None),
        ("net = Block(8, *[False])\n", None),
        ("def main():\n    sizes = (8, False)\n    return Block(*sizes)\n", None),  # a local bound once
        ("sizes = (8, True)\nnet = Block(*sizes)\n", "ERROR"),
        ("SIZES = (8, False)\n\ndef build():\n    return Block(*SIZES)\n\nnet = build()\n", None),  # read in a function
        (  # a function that declares it global may rebind it
            "SIZES = (8, False)\n\ndef build():\n    return Block(*SIZES)\n\ndef reset():\n    global SIZES\n"
            "    SIZES = (8, True)\n\nnet = build()\n",
            "WARNING",
        ),
        ("sizes = (8,)\nnet = Block(*sizes, attention=False)\n", None),
        ("sizes = [8, False]\nsizes.append(True)\nnet = Block(*sizes)\n", "WARNING"),  # a list may change
        ("import sys\nnet = Block(*sys.argv)\n", "WARNING"),
    ],
)
def test_spread_constant_tuples_give_their_items(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, program) == expected

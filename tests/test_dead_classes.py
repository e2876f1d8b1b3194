"""Nothing found in a branch of host code the configuration never takes holds, nor in a class only
such code builds (mslint.model.host_branches, mslint.model.dead_classes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

CELLS = """\
from mindspore import nn


class Scaler(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4, bias=False)

    def construct(self, x):
        return self.proj(x)


class ScaledStep(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.scaler = Scaler()

    def construct(self, x):
        return self.scaler(self.net(x))
"""

TRAIN = """\
from mindspore import nn

from src.cells import ScaledStep
from src.config import cfg


def main():
    net = nn.Dense(4, 4)
    if cfg.loss_scale:
        net = ScaledStep(net)
    return net
"""


def _findings(root: Path, files: dict[str, str]) -> dict[tuple[str, int], str]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    report = check_files(sorted(root.rglob("*.py")), Settings(root=root, select=("unknown-mindspore-api",)))
    return {(Path(d.path).name, d.line): d.severity.name for d in report.diagnostics}


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        # the imported configuration of literals never takes the branch: no ScaledStep, no Scaler
        ('from easydict import EasyDict as edict\n\ncfg = edict({"loss_scale": False})\n', {}),
        ('from easydict import EasyDict as edict\n\ncfg = edict({"loss_scale": True})\n', {("cells.py", 7): "ERROR"}),
        ('cfg = {"loss_scale": 0}\ncfg = {"loss_scale": 1}\n', {("cells.py", 7): "ERROR"}),  # bound twice: not known
    ],
)
def test_a_class_built_only_in_a_branch_the_configuration_never_takes_has_no_findings(
    tmp_path: Path, config: str, expected: dict[tuple[str, int], str]
) -> None:
    files = {"src/cells.py": CELLS, "train.py": TRAIN, "src/config.py": config}
    assert _findings(tmp_path, files) == expected


@pytest.mark.parametrize(
    "change", ["cfg.loss_scale = True", 'cfg.update({"loss_scale": True})', "cfg.train.loss_scale = True"]
)
def test_a_configuration_another_importer_changes_is_not_known(tmp_path: Path, change: str) -> None:
    files = {
        "src/cells.py": CELLS,
        "train.py": TRAIN,
        "src/config.py": 'cfg = {"loss_scale": False}\n',
        "tune.py": f"from src.config import cfg\n\n{change}\n",
    }
    assert _findings(tmp_path, files) == {("cells.py", 7): "ERROR"}


def test_an_options_default_decides_no_branch(tmp_path: Path) -> None:
    """A command line may give the option another value than its default."""
    train = TRAIN.replace("from src.config import cfg\n", "import argparse\n").replace(
        "def main():\n",
        "def main():\n"
        "    parser = argparse.ArgumentParser()\n"
        '    parser.add_argument("--loss_scale", type=int, default=0)\n'
        "    cfg = parser.parse_args()\n",
    )
    assert _findings(tmp_path, {"src/cells.py": CELLS, "train.py": train}) == {("cells.py", 7): "ERROR"}


def test_a_configuration_file_opened_by_a_literal_path_decides_the_branch(tmp_path: Path) -> None:
    train = (
        TRAIN.replace("from src.config import cfg\n", "import json\n")
        .replace("def main():\n", 'def main():\n    cfg = json.load(open("config.json"))\n')
        .replace("cfg.loss_scale", 'cfg["train"]["loss_scale"]')
    )
    found = {}
    for scale in ("false", "true"):
        (tmp_path / scale).mkdir()
        (tmp_path / scale / "config.json").write_text(f'{{"train": {{"loss_scale": {scale}}}}}', encoding="utf-8")
        found[scale] = _findings(tmp_path / scale, {"src/cells.py": CELLS, "train.py": train})
    assert found == {"false": {}, "true": {("cells.py", 7): "ERROR"}}


DECODER = """\
import json

from mindspore import nn


class Attention(nn.Cell):
    def __init__(self, hidden):
        super().__init__()
        self.proj = nn.Dense(hidden, hidden, bias=False)

    def construct(self, x):
        return self.proj(x)


class Decoder(nn.Cell):
    def __init__(self, hidden, attention):
        super().__init__()
        self.use_attention = attention
        if self.use_attention:
            self.attention = Attention(hidden)

    def construct(self, x):
        return x


def build(path):
    config = json.load(open(path))
    return Decoder(4, config["model"]["attention"])
"""


@pytest.mark.parametrize("attention", ['config["model"]["attention"]', "False"])
def test_a_class_built_only_under_a_constructor_test_keeps_its_error(tmp_path: Path, attention: str) -> None:
    """Its users may build it with the option the program's own instances do not select."""
    path = tmp_path / "decoder.py"
    path.write_text(DECODER.replace('config["model"]["attention"]', attention), encoding="utf-8")
    (finding,) = check_files([path], Settings(root=tmp_path, select=("unknown-mindspore-api",))).diagnostics
    assert (finding.line, finding.severity.name) == (9, "ERROR")


def test_a_class_built_by_a_class_only_dead_code_builds_has_no_findings(tmp_path: Path) -> None:
    path = tmp_path / "decoder.py"
    text = DECODER.replace("    return Decoder(", '    if SETUP["decoder"]:\n        return Decoder(')
    path.write_text(text + '\n\nSETUP = {"decoder": False}\n', encoding="utf-8")
    assert check_files([path], Settings(root=tmp_path, select=("unknown-mindspore-api",))).diagnostics == []


def test_a_configuration_file_a_method_changes_decides_nothing(tmp_path: Path) -> None:
    train = TRAIN.replace("from src.config import cfg\n", "import json\n").replace(
        "def main():\n", 'def main():\n    cfg = json.load(open("config.json"))\n    cfg.update({"loss_scale": 1})\n'
    )
    (tmp_path / "config.json").write_text('{"loss_scale": false}', encoding="utf-8")
    assert _findings(tmp_path, {"src/cells.py": CELLS, "train.py": train}) == {("cells.py", 7): "ERROR"}


@pytest.mark.parametrize(("scale", "expected"), [("False", {}), ("True", {("cells.py", 7): "ERROR"})])
def test_a_class_only_a_function_no_run_calls_builds_has_no_findings(
    tmp_path: Path, scale: str, expected: dict[tuple[str, int], str]
) -> None:
    train = TRAIN.replace("        net = ScaledStep(net)\n", "        net = wrap(net)\n") + (
        "\n\ndef wrap(net):\n    return ScaledStep(net)\n"
    )
    config = f'cfg = {{"loss_scale": {scale}}}\n'
    assert _findings(tmp_path, {"src/cells.py": CELLS, "train.py": train, "src/config.py": config}) == expected


MERGING_HELPER = """\
import argparse
import os

import yaml


def get_config():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--config_path", default=os.path.join(here, "../configs/default.yaml"))
    path_args, _ = parser.parse_known_args()
    with open(os.path.join(here, path_args.config_path)) as stream:
        fields = next(yaml.load_all(stream, Loader=yaml.SafeLoader))
    for key, value in fields.items():
        parser.add_argument("--" + key, default=value)
    return parser.parse_args()


config = get_config()
"""

MERGED_TRAIN = TRAIN.replace("from src.config import cfg\n", "from src.utils.config import config\n").replace(
    "def main():\n", "def main():\n    cfg = config\n    cfg.device = 'CPU'\n"
)


@pytest.mark.parametrize(
    ("large", "script", "elsewhere", "expected"),
    [
        ("false", "", "", {}),
        ("true", "", "", {("cells.py", 7): "ERROR"}),  # a configuration beside the default selects it
        ("false", "python train.py --loss_scale True\n", "", {("cells.py", 7): "ERROR"}),  # a script gives it
        ("false", "", "from src.utils.config import config\n\nconfig.loss_scale = 1\n", {("cells.py", 7): "ERROR"}),
        ("false", "", "from src.utils.config import config\n\nsetattr(config, NAME, 1)\n", {("cells.py", 7): "ERROR"}),
    ],
)
def test_a_configuration_a_helper_merges_decides_the_branch_where_every_file_agrees(
    tmp_path: Path, large: str, script: str, elsewhere: str, expected: dict[tuple[str, int], str]
) -> None:
    (tmp_path / "src/configs").mkdir(parents=True)
    (tmp_path / "src/configs/default.yaml").write_text("loss_scale: false\n---\nloss_scale: help\n", encoding="utf-8")
    (tmp_path / "src/configs/large.yaml").write_text(f"loss_scale: {large}\n", encoding="utf-8")
    files = {"src/cells.py": CELLS, "train.py": MERGED_TRAIN, "src/utils/config.py": MERGING_HELPER}
    if script:
        files["scripts/run.sh"] = f"python train.py --config_path ../configs/large.yaml\n{script}"
    if elsewhere:
        files["tune.py"] = elsewhere
    assert _findings(tmp_path, files) == expected


FLAG_TRAIN = """\
import argparse

from mindspore import nn

from src.cells import ScaledStep

parser = argparse.ArgumentParser()
parser.add_argument("--loss-scale", action="store_true")
parser.add_argument("--steps", type=int, default=0)
args = parser.parse_args()


def main():
    net = nn.Dense(4, 4)
    if args.TESTED:
        net = ScaledStep(net)
    return net
"""


@pytest.mark.parametrize(
    ("tested", "script", "expected"),
    [
        ("loss_scale", "", {}),  # a flag no launch script gives
        ("loss_scale", "python train.py --loss-scale\n", {("cells.py", 7): "ERROR"}),
        ("steps", "", {("cells.py", 7): "ERROR"}),  # an option with a value: any value may be given
    ],
)
def test_a_flag_no_launch_script_gives_holds_its_default(
    tmp_path: Path, tested: str, script: str, expected: dict[tuple[str, int], str]
) -> None:
    files = {"src/cells.py": CELLS, "train.py": FLAG_TRAIN.replace("TESTED", tested)}
    if script:
        files["run.sh"] = script
    assert _findings(tmp_path, files) == expected

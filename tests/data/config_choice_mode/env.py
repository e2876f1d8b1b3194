import mindspore as ms
import yaml
from easydict import EasyDict


def load_config(path):
    with open(path) as stream:
        return EasyDict(yaml.safe_load(stream))


def init_env(cfg):
    """Selects the mode the configuration names (the configuration passed by train.py)."""
    mode = ms.PYNATIVE_MODE if cfg.system.context_mode.lower() == "pynative_mode" else ms.GRAPH_MODE
    ms.set_context(mode=mode, device_target=cfg.system.device_target)

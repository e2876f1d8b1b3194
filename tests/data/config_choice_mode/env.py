import mindspore as ms


def init_env(cfg):
    """Selects the mode the configuration names (the configuration passed by train.py)."""
    mode = ms.PYNATIVE_MODE if cfg.system.context_mode.lower() == "pynative_mode" else ms.GRAPH_MODE
    ms.set_context(mode=mode, device_target=cfg.system.device_target)

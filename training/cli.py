"""``rubricloop-train``: Hydra entry point of the GRPO trainer (config: ``conf/train.yaml``).

    rubricloop-train model=tiny_sd3 trainer.num_steps=2
    accelerate launch --config_file conf/accelerate/ddp.yaml -m training.cli model=sd35_medium
"""

from __future__ import annotations

import sys

import hydra
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from training.grpo import GRPOConfig, train


def run(cfg: DictConfig) -> dict:
    """Build data, rewards and the pipeline from ``cfg`` and train. Returns ``train``'s history.

    Raises:
        ValueError: an unknown trainer field or a bad config (one line).
    """
    from training.data import make_dataset
    from training.leakage import check_leakage

    fields = OmegaConf.to_container(cfg.trainer, resolve=True)
    unknown = sorted(set(fields) - set(GRPOConfig.__dataclass_fields__))
    if unknown:
        raise ValueError(f"conf/train.yaml: unknown trainer field(s) {unknown}")
    trainer = GRPOConfig(**fields)
    reward_fns = {name: instantiate(spec.fn) for name, spec in cfg.rewards.items()}
    weights = {name: float(spec.weight) for name, spec in cfg.rewards.items()}
    train_items, val_items = make_dataset(cfg.data.n, cfg.data.seed, val_fraction=cfg.data.val_fraction)
    if cfg.data.heldout:
        check_leakage(train_items, list(cfg.data.heldout))
    pipe = instantiate(cfg.model.pipeline)
    family_kwargs = OmegaConf.to_container(cfg.model.family_kwargs, resolve=True)
    return train(trainer, pipe, reward_fns, weights, train_items, val_items, family_kwargs)


@hydra.main(version_base="1.3", config_path="pkg://conf", config_name="train")
def _main(cfg: DictConfig) -> None:
    run(cfg)


def main() -> None:
    """Console script ``rubricloop-train``: bad configs end with one line on stderr, exit 2."""
    try:
        _main()
    except ValueError as e:
        print(f"rubricloop-train: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()

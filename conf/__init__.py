"""Hydra configs, shipped as package data so ``config_path="pkg://conf"`` works for any install."""

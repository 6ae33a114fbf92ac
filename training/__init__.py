"""LoRA + GRPO fine-tuning of flow-matching text-to-image models on rubric rewards.

Follows Flow-GRPO (arXiv 2505.05470): SDE rollouts with per-step log-probs, group-relative
advantages, a clipped-ratio policy loss and a closed-form KL to the LoRA-disabled reference.
"""

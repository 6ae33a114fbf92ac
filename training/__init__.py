"""LoRA + GRPO fine-tuning of flow-matching text-to-image models on rubric rewards.

Follows Flow-GRPO (arXiv 2505.05470): SDE rollouts with per-step log-probs, group-relative
advantages, a clipped-ratio policy loss and a closed-form KL to the LoRA-disabled reference.

May import: ``rewards`` (never ``rewards.eval``) and ``training`` itself; never ``refine``.
"""

import logging


def _drop_torchvision_fallback_notice(record: logging.LogRecord) -> bool:
    # transformers warns, per image processor, that torchvision is missing and it uses the PIL
    # backend instead; this project never installs torchvision, so the notice is only noise.
    return "requires torchvision (not installed)" not in record.getMessage()


logging.getLogger("transformers.utils.import_utils").addFilter(_drop_torchvision_fallback_notice)

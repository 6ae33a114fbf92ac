"""LoRA + GRPO fine-tuning of flow-matching text-to-image models on rubric rewards.

Follows Flow-GRPO (arXiv 2505.05470): SDE rollouts with per-step log-probs, group-relative
advantages, a clipped-ratio policy loss and a closed-form KL to the LoRA-disabled reference.

May import: ``rewards`` (never ``rewards.eval``) and ``training`` itself; never ``refine``.
One data file of refine's is read, no code: the bundled example's BizGenEval rows (package
data of ``refine.example``) are the leakage guard's default held-out set (``data.heldout=[bundled]``).

Modules, the math first, the recipe last (each imports only modules above it in this list):

* ``sde``, ``grpo_math``, ``timesteps``: the SDE step and its log-prob; advantages, the
  clipped loss, the KL, EMA; which denoising steps are SDE and trained.
* ``checkpoint``, ``data``, ``rollout``: checkpoint files; the procedural prompts; pipeline
  families and SDE rollouts.
* ``config``: ``GRPOConfig`` and its checks (and the trainer's Hydra ConfigStore entry).
* ``update``: the LoRA policy, minibatches and the update step.
* ``state``: LoRA, optimizer, EMA, save and resume.
* ``scoring``: named rewards, the reward check, evaluation, reward-hacking logs.
* ``logs``: one record per step -> history.json and the W&B row.
* ``grpo``: the Flow-GRPO recipe (``train``); ``cli``: ``rubricloop-train``.
"""

import logging


def _drop_torchvision_fallback_notice(record: logging.LogRecord) -> bool:
    # transformers warns, per image processor, that torchvision is missing and it uses the PIL
    # backend instead; this project never installs torchvision, so the notice is only noise.
    return "requires torchvision (not installed)" not in record.getMessage()


logging.getLogger("transformers.utils.import_utils").addFilter(_drop_torchvision_fallback_notice)

"""LoRA fine-tuning of flow-matching text-to-image models on rubric rewards, with three recipes
behind ``trainer.algorithm``: Flow-GRPO (``grpo``, arXiv 2505.05470: SDE rollouts with per-step
log-probs, group-relative advantages, a clipped-ratio loss and a closed-form KL to the
LoRA-disabled reference), DiffusionNFT (``nft``, NVlabs/DiffusionNFT: a flow-matching loss on
clean samples between positive and implicit-negative velocities) and Advantage Weighted Matching
(``awm``, scxue/advantage_weighted_matching: the flow-matching loss weighted by the advantage,
a KL to an EMA reference).

May import: ``rewards``, ``training`` itself, and of ``refine`` only
``refine.interfaces`` and ``refine.writers.local_vlm`` (the instruction writer is trained on the
exact request refine's trained writer sends; refine never imports training).
One data file of refine's is read, no code: the bundled example's BizGenEval rows (package
data of ``refine.example``) are the leakage guard's default held-out set (``data.heldout=[bundled]``).

Modules, the math first, the recipes last (each imports only modules above it in this list):

* ``sde``, ``grpo_math``, ``nft_math``, ``awm_math``, ``timesteps``: the SDE step and its
  log-prob; each algorithm's loss, advantage transform, KL and reference-weight updates as pure
  functions; which denoising steps are SDE and trained.
* ``checkpoint``, ``item_split``, ``data``, ``layout_data``, ``rollout``: checkpoint files; the
  procedural prompts (``data.task=documents`` OCR-checked slides, charts, posters;
  ``data.task=layout`` checks the layout judge decides from pixels; ``item_split`` the distinct
  prompts and seeded split both share); pipeline families and rollouts.
* ``config``: ``GRPOConfig`` (every recipe's knobs) and its checks (and the trainer's Hydra ConfigStore entry).
* ``update``: the LoRA policy, minibatches and the GRPO update step.
* ``state``: LoRA, optimizer, EMA, a recipe's extra LoRA copies, save and resume.
* ``scoring``: named rewards, the reward check, evaluation, reward-hacking logs.
* ``logs``: one record per step -> history.json and the W&B row.
* ``loop``: what every recipe shares around its own steps (start, prompt draw, advantages,
  evaluations, end of a step, end of the run).
* ``grpo``, ``nft``, ``awm``: the recipes (each a ``train`` with the same signature);
  ``cli``: ``rubricloop-train``.
* The text policies (``task=prompt_rewriter | instruction_writer``, trl's GRPOTrainer):
  ``trl_reward`` (the adapter from our item scorers to trl's reward contract), ``text_rewards``
  (guards, render or edit, judge), ``text_data`` (items and trl rows), ``text_grpo`` (the
  recipe), ``text_cli`` (its entry point, reached through ``cli``); ``console``: the one-line
  errors and exit statuses both entry points share.
"""

import logging


def _drop_torchvision_fallback_notice(record: logging.LogRecord) -> bool:
    # transformers warns, per image processor, that torchvision is missing and it uses the PIL
    # backend instead; this project never installs torchvision, so the notice is only noise.
    return "requires torchvision (not installed)" not in record.getMessage()


logging.getLogger("transformers.utils.import_utils").addFilter(_drop_torchvision_fallback_notice)

"""LoRA fine-tuning on rubric rewards: image recipes for flow-matching text-to-image models behind
``trainer.algorithm``, and the trl text policies in front of them.

May import: ``rewards``, ``training`` itself, and of ``refine`` only
``refine.interfaces`` and ``refine.writers.local_vlm`` (the instruction writer is trained on the
exact request refine's trained writer sends) and the components the text tasks' configs build
(``refine.generators``, ``refine.editors``); never the loop, and refine never imports training.
One data file of refine's is read, no code: the bundled example's BizGenEval rows (package
data of ``refine.example``) are the leakage guard's default held-out set (``data.heldout=[bundled]``).

Three wings and a hall (tests/test_import_rules.py ``test_training_wings_stay_apart``):

* ``training.procedural``: the procedural prompts and checks (``make_dataset``); imports no
  other part of training.
* the diffusion wing: ``training.diffusion`` (the parts: SDE and each algorithm's math, rollouts,
  the LoRA state, the shared loop, scoring, logs, ``TrainerConfig``) and ``training.recipes``
  (the recipes on those parts, one module each, found by name: ``grpo`` Flow-GRPO arXiv
  2505.05470, ``nft`` DiffusionNFT NVlabs/DiffusionNFT, ``awm`` Advantage Weighted Matching
  scxue/advantage_weighted_matching, ``grpo_guard`` GRPO-Guard; each with its own config
  dataclass and ``conf/trainer/<name>.yaml``). A new algorithm is one file in
  ``training/recipes/`` and one yaml; nothing else lists the recipes.
* ``training.text``: the text policies (trl's GRPOTrainer); never imports the diffusion wing.
* the hall, shared by the wings: ``run_dir`` (run folder, records, W&B run id, held-out
  files), ``console`` (one-line errors and exit statuses), and ``cli`` (``rubricloop-train``:
  dispatches ``task=image`` to the recipes and the text tasks to ``training.text.cli``; the
  only module that imports every wing).
"""

import logging


def _drop_torchvision_fallback_notice(record: logging.LogRecord) -> bool:
    # transformers warns, per image processor, that torchvision is missing and it uses the PIL
    # backend instead; this project never installs torchvision, so the notice is only noise.
    return "requires torchvision (not installed)" not in record.getMessage()


logging.getLogger("transformers.utils.import_utils").addFilter(_drop_torchvision_fallback_notice)

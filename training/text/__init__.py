"""The text wing: the trl policies in front of the image models (``task=prompt_rewriter |
instruction_writer``, trl's GRPOTrainer), reached through ``training.cli``.

* ``trl_reward``: the adapter from our item scorers to trl's reward contract;
* ``rewards``: guards, render or edit, judge; ``data``: items and trl rows;
* ``grpo``: the recipe; ``cli``: its entry point (``rubricloop-train task=...``).

May import the hall (``training.console``, ``training.run_dir``) and ``training.procedural``,
never the diffusion wing or the image recipes.
"""

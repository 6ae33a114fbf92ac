"""The diffusion wing's parts: everything the image recipes (``training.recipes``) run on.

Modules, the math first (each imports only modules above it in this list, the hall
``training.run_dir`` and ``training.procedural``):

* ``sde``, ``grpo_math``, ``nft_math``, ``awm_math``, ``timesteps``: the SDE step and its
  log-prob and the one noising function (``sde.noise_latents``); each algorithm's loss,
  advantage transform and KL as pure functions; which denoising steps are SDE and trained.
* ``checkpoint``, ``rollout``: checkpoint files; pipeline families and rollouts.
* ``config``: ``TrainerConfig`` (the knobs every recipe shares) and the shared checks.
* ``update``: the LoRA policy, minibatches and the GRPO update step.
* ``state``: LoRA, optimizer, EMA (the one ``ema_update``), gradient accumulation
  (``accumulate``), a recipe's extra LoRA copies, save and resume.
* ``scoring``: named rewards, the reward check, evaluation, reward-hacking logs.
* ``logs``: one record per step -> history.json and the W&B row.
* ``pretrain``: the tiny layout generator (a StableDiffusion3Pipeline pretrained here on the
  layout task's drawn pages, ``model=tiny_sd3_layout``), built on first use.
* ``loop``: what every recipe shares around its own steps (start, the step scaffolding
  ``run_steps``, prompt draw, advantages, evaluations, end of a step, end of the run).
"""

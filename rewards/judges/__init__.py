"""Judges: images + checks in, one verdict per check out.

Every judge implements :class:`rewards.judges.base.Judge`. The router
(:mod:`rewards.judges.router`) gives each check to the first judge able to answer it.

May import: ``rewards.common``, ``rewards.models``, ``rewards.text`` and the core modules
(``rewards.rubric``, ``rewards.importers``, ...). Never ``rewards.scorers`` or ``rewards.reward_fns``.
"""

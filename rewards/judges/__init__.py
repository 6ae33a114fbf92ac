"""Judges: images + checks in, one verdict per check out.

Every judge implements :class:`rewards.judges.base.Judge`. The router
(:mod:`rewards.judges.router`) gives each check to the first judge able to answer it. Any judge can be
served over HTTP (:mod:`rewards.judges.serve`) and asked by :mod:`rewards.judges.http_judge`.

May import: ``rewards.common``, ``rewards.models``, ``rewards.text`` and the core modules
(``rewards.rubric``, ``rewards.importers``, ...). Never ``rewards.scorers`` or ``rewards.reward_fns``.
"""

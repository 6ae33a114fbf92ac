"""Judges: images + checks in, one verdict per check out.

Every judge implements :class:`rewards.judges.base.Judge`. The router
(:mod:`rewards.judges.router`) gives each check to the first judge able to answer it.
"""

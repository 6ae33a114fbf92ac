"""Instruction writers: failed checks -> edit instructions (template, LLM over an API, local VLM).

May import: ``rewards`` and ``refine.interfaces``.
"""

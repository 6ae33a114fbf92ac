"""The refine loop: judge -> failed checks -> edit instructions -> editor -> judge again.

May import: ``rewards`` and ``refine`` itself; never ``training``.
Inside: ``refine.loop`` and ``refine.cli`` sit above ``writers/``, ``editors/``,
``generators`` and ``interfaces``.
"""

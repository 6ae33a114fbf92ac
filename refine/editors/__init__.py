"""Image editors: the offline text editor and diffusers instruction-editing pipelines.

May import: ``rewards`` (never ``rewards.eval``), ``refine.interfaces`` and ``refine.generators``.
"""

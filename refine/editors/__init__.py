"""Image editors: the offline text editor and diffusers instruction-editing pipelines.

May import: ``rewards``, ``refine.interfaces`` and ``refine.generators``.
"""

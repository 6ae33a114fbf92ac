"""Model plumbing: devices, the base-model schema (``base_model``: what conf/model describes), tiny
random-weight builders (tests, smoke runs), the loaders (``pipelines`` for diffusers pipelines,
``qwen_vl`` for Qwen2.5-VL) and the chat client.

May import: ``rewards.common``. Never a judge, a writer or a trainer: they import this room to
get a model or a client.
"""

"""Model plumbing: devices, tiny random-weight builders (tests, smoke runs), loaders, the chat client.

May import: ``rewards.common``. Never a judge, a writer or a trainer: they import this room to
get a model or a client.
"""

"""Instruction writers: failed checks -> edit instructions (template, LLM over an API, local VLM)."""

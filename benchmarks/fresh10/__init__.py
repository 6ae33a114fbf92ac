"""The tenth tester's engine-drawn pages (``benchmarks/fresh10_pages.py``)."""

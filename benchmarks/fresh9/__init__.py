"""The ninth tester's engine-drawn pages (``benchmarks/fresh9_pages.py``)."""

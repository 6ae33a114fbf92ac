"""The eleventh tester's engine-drawn pages (``benchmarks/fresh11_pages.py``)."""

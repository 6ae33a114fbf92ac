"""The eighth tester's seeded engine pages (``benchmarks/fresh8_pages.py``): templates and string pools."""

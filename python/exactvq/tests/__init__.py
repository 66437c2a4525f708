"""The installed package's own tests: `python -m pytest --pyargs exactvq.tests` (see test_package.py)."""

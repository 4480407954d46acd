"""Stands in for PyTorch where a test runs a program as if PyTorch were not installed."""
raise ImportError("No module named 'torch' (hidden by tests/research/no_torch)")

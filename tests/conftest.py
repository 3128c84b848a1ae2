"""Shared test setup: the step modules are importable through pyproject's pythonpath."""

"""Shared test setup: the step modules are importable, and workflow runs are isolated."""

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))

"""Make the generation test helpers (tests/writers/generate_helpers.py) importable here."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "writers"))

"""Make the metric oracle (tests/metrics/oracle.py) importable here."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "metrics"))

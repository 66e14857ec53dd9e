"""The reward examples run end to end (slow: they generate PaintBench problems)."""

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["reward_in_training_loop.py", "rewards_flow_grpo.py",
                                  "rewards_verl.py", "rewards_flow_factory.py"])
def test_example_runs(name):
    done = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip()

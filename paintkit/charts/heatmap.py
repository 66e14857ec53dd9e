"""Heatmap: state and its four tasks (add_cell, shift_heatmap, mask_cells, change_colormap).

State (besides :mod:`paintkit.charts.common`): ``values``: rows x columns (4-9 each) of
floats or ``None`` (an empty, NaN cell, drawn in the background colour; row 1 on top,
column 1 on the left), ``vmin``/``vmax`` (colour scale, shown by the colorbar), ``cmap``:
the two endpoint colours ``[low, high]`` of a linear colormap. There is always at least
one empty cell.
"""

from __future__ import annotations

import copy
import random

from paintkit.charts.common import base_style, nice_limit, object_avoid
from paintkit.charts.style import delta_e, fmt, round_sig, sample_colors, sample_magnitude
from paintkit.errors import RejectedSeed

CHART = "heatmap"
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
THRESHOLD_CLEARANCE = 0.01  # of vmax: no cell value this close to a mask threshold
CMAP_CONTRAST = 60.0  # CIE76 between the two colormap ends, so values are told apart


def sample_cmap(rng: random.Random, avoid: list[str]) -> list[str]:
    """Two colormap end colours, distinct from ``avoid`` and at least CMAP_CONTRAST apart."""
    for _ in range(50):
        low, high = sample_colors(rng, 2, avoid)
        if delta_e(low, high) >= CMAP_CONTRAST:
            return [low, high]
    raise RejectedSeed("no colormap ends far enough apart")


def base_state(rng: random.Random) -> dict:
    """A fresh heatmap (see the module docstring)."""
    state = base_style(CHART, rng)
    rows, cols = rng.randint(4, 9), rng.randint(4, 9)
    vmax = nice_limit(sample_magnitude(rng) * rng.uniform(1.0, 9.9))
    values = [[round_sig(rng.uniform(0.02, 0.98) * vmax) for _ in range(cols)] for _ in range(rows)]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for r, c in rng.sample(cells, rng.randint(1, 3)):
        values[r][c] = None
    cmap = sample_cmap(rng, object_avoid(state))
    state.update(values=values, vmin=0.0, vmax=vmax, cmap=cmap)
    return state


def _cells(state: dict) -> list[tuple[int, int, float | None]]:
    return [(r, c, v) for r, row in enumerate(state["values"]) for c, v in enumerate(row)]


def add_cell(base: dict, rng: random.Random):
    """Fill one empty cell with a stated value (1-based row and column)."""
    empty = [(r, c) for r, c, v in _cells(base) if v is None]
    r, c = rng.choice(empty)
    value = round_sig(rng.uniform(0.02, 0.98) * base["vmax"])
    ans = copy.deepcopy(base)
    ans["values"][r][c] = value
    instruction = (f"Fill the empty cell in row {r + 1}, column {c + 1} (counting from the top left) "
                   f"with the colour the colour scale gives the value {fmt(value)}.")
    return copy.deepcopy(base), ans, instruction, {"row": r + 1, "column": c + 1, "value": value}


def shift_grid(values: list[list], dr: int, dc: int) -> list[list]:
    """``values`` moved ``dr`` rows down and ``dc`` columns right; exposed cells are None."""
    rows, cols = len(values), len(values[0])
    return [[values[r - dr][c - dc] if 0 <= r - dr < rows and 0 <= c - dc < cols else None
             for c in range(cols)] for r in range(rows)]


def shift_heatmap(base: dict, rng: random.Random):
    """Shift every cell 1-2 cells in a direction; cells pushed out disappear, exposed cells
    are left empty."""
    direction = rng.choice(sorted(DIRECTIONS))
    steps = rng.randint(1, 2)
    dr, dc = (d * steps for d in DIRECTIONS[direction])
    ans = copy.deepcopy(base)
    ans["values"] = shift_grid(base["values"], dr, dc)
    if ans["values"] == base["values"]:
        raise RejectedSeed("shift changes nothing")
    cells = "cell" if steps == 1 else "cells"
    instruction = (f"Shift the whole grid of coloured cells {steps} {cells} {direction}: cells pushed past "
                   "the edge disappear and the cells left behind are empty. Keep the axes and colorbar.")
    return copy.deepcopy(base), ans, instruction, {"direction": direction, "steps": steps}


def mask_cells(base: dict, rng: random.Random):
    """Empty every cell above (or below) a stated value."""
    values = sorted(v for _, _, v in _cells(base) if v is not None)
    above = rng.random() < 0.5
    for _ in range(100):
        threshold = round_sig(values[0] + rng.uniform(0.2, 0.8) * (values[-1] - values[0]))
        if all(abs(v - threshold) >= THRESHOLD_CLEARANCE * base["vmax"] for v in values):
            break
    else:
        raise RejectedSeed("no mask threshold clear of the cell values")
    ans = copy.deepcopy(base)
    ans["values"] = [[None if v is not None and ((v > threshold) if above else (v < threshold)) else v
                      for v in row] for row in base["values"]]
    side = "above" if above else "below"
    instruction = (f"Mask every cell whose value is {side} {fmt(threshold)}: leave those cells empty "
                   "(background colour), like the cells that are already empty.")
    return copy.deepcopy(base), ans, instruction, {"threshold": threshold, "side": side}


def change_colormap(base: dict, rng: random.Random):
    """Replace both endpoint colours of the colormap (cells and colorbar follow)."""
    low, high = sample_cmap(rng, [*object_avoid(base), *base["cmap"]])
    ans = copy.deepcopy(base)
    ans["cmap"] = [low, high]
    instruction = (f"Change the colormap to a linear gradient from {low} at {fmt(base['vmin'])} to {high} "
                   f"at {fmt(base['vmax'])}; recolour every cell and the colorbar accordingly.")
    return copy.deepcopy(base), ans, instruction, {"cmap": [low, high], "old_cmap": base["cmap"]}


TASKS = {"add_cell": add_cell, "shift_heatmap": shift_heatmap, "mask_cells": mask_cells,
         "change_colormap": change_colormap}

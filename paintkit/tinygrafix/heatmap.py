"""Heatmap: state and its four tasks (add_cell, shift_heatmap, mask_cells, change_colormap).

State (besides :mod:`paintkit.tinygrafix.common`): ``values``: rows x columns (4-9 each) of
floats or ``None`` (an empty, NaN cell, drawn in the background colour; row 1 on top,
column 1 on the left), ``vmin``/``vmax`` (colour scale, shown by the colorbar: from 0, from
a positive offset, or from a negative value), ``cmap``: the two endpoint colours
``[low, high]`` of a linear colormap. There is always at least one empty cell.

Every pixel an edit changes changes by a visible colour difference (doing nothing is never
rewarded): every colour of the scale is at least :data:`~paintkit.tinygrafix.style.MIN_DELTA_E`
from the background (an emptied or filled cell), a shift never moves a cell onto a cell of
nearly its colour (:data:`CELL_CONTRAST`), and a new colormap differs from the old one at
every level by at least as much.
"""

from __future__ import annotations

import copy
import random

from paintkit.errors import RejectedSeed
from paintkit.hex_lab import delta_e, hex_of, rgb_of
from paintkit.tinygrafix.common import base_style, object_avoid, sample_range
from paintkit.tinygrafix.style import MIN_DELTA_E, fmt, round_sig, sample_colors, sample_magnitude

CHART = "heatmap"
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
THRESHOLD_CLEARANCE = 0.01  # of the scale's span: no cell value this close to a mask threshold
CMAP_CONTRAST = 60.0  # CIE76 between the two colormap ends, so values are told apart
CMAP_LEVELS = 256  # colours of the scale (the renderer's lookup table)
CELL_CONTRAST = 15.0  # CIE76: least colour change of a cell a shift or a new colormap makes
_CHECK_LEVELS = 33  # scale levels checked against the background and the old colormap


def scale_color(cmap: list[str], fraction: float) -> str:
    """The colour the linear colormap ``cmap`` gives ``fraction`` of its range (0 = low end,
    1 = high end), on its :data:`CMAP_LEVELS`-level table (what the colorbar shows)."""
    level = min(max(int(fraction * CMAP_LEVELS), 0), CMAP_LEVELS - 1) / (CMAP_LEVELS - 1)
    low, high = rgb_of(cmap[0]), rgb_of(cmap[1])
    return hex_of(tuple(round(a + (b - a) * level) for a, b in zip(low, high, strict=True)))


def value_color(state: dict, value: float) -> str:
    """The colour of a cell of ``value`` in ``state``."""
    return scale_color(state["cmap"], (value - state["vmin"]) / (state["vmax"] - state["vmin"]))


def _levels(cmap: list[str]) -> list[str]:
    return [scale_color(cmap, k / (_CHECK_LEVELS - 1)) for k in range(_CHECK_LEVELS)]


def sample_cmap(rng: random.Random, avoid: list[str], background: str,
                old: list[str] | None = None) -> list[str]:
    """Two colormap end colours, distinct from ``avoid`` and at least CMAP_CONTRAST apart,
    every level of the scale at least MIN_DELTA_E from ``background`` and, given the ``old``
    colormap, at least CELL_CONTRAST from the old colour of the same level."""
    for _ in range(50):
        low, high = sample_colors(rng, 2, avoid)
        if delta_e(low, high) < CMAP_CONTRAST:
            continue
        levels = _levels([low, high])
        if min(delta_e(c, background) for c in levels) < MIN_DELTA_E:
            continue
        if old is not None and min(delta_e(a, b) for a, b in zip(levels, _levels(old), strict=True)) \
                < CELL_CONTRAST:
            continue
        return [low, high]
    raise RejectedSeed("no colormap far enough from the background (and the old colormap)")


def _draw_value(rng: random.Random, state: dict) -> float:
    span = state["vmax"] - state["vmin"]
    return round_sig(state["vmin"] + rng.uniform(0.02, 0.98) * span)


def base_state(rng: random.Random) -> dict:
    """A fresh heatmap (see the module docstring)."""
    state = base_style(CHART, rng)
    rows, cols = rng.randint(4, 9), rng.randint(4, 9)
    vmin, vmax = sample_range(rng, sample_magnitude(rng))
    state.update(vmin=vmin, vmax=vmax)
    values = [[_draw_value(rng, state) for _ in range(cols)] for _ in range(rows)]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for r, c in rng.sample(cells, rng.randint(1, 3)):
        values[r][c] = None
    cmap = sample_cmap(rng, object_avoid(state), state["theme"]["background"])
    state.update(values=values, cmap=cmap)
    return state


def _cells(state: dict) -> list[tuple[int, int, float | None]]:
    return [(r, c, v) for r, row in enumerate(state["values"]) for c, v in enumerate(row)]


def add_cell(base: dict, rng: random.Random):
    """Fill one empty cell with a stated value (1-based row and column)."""
    empty = [(r, c) for r, c, v in _cells(base) if v is None]
    r, c = rng.choice(empty)
    value = _draw_value(rng, base)
    ans = copy.deepcopy(base)
    ans["values"][r][c] = value
    instruction = (f"Fill the empty cell in row {r + 1}, column {c + 1} (counting from the top left) "
                   f"with the color of the value {fmt(value)} on the color scale.")
    return copy.deepcopy(base), ans, instruction, {"row": r + 1, "column": c + 1, "value": value}


def shift_grid(values: list[list], dr: int, dc: int) -> list[list]:
    """``values`` moved ``dr`` rows down and ``dc`` columns right; exposed cells are None."""
    rows, cols = len(values), len(values[0])
    return [[values[r - dr][c - dc] if 0 <= r - dr < rows and 0 <= c - dc < cols else None
             for c in range(cols)] for r in range(rows)]


def _contrast_along(rng: random.Random, state: dict, dr: int, dc: int) -> list[list]:
    """``state``'s values with cells redrawn where needed so that every cell differs by at
    least CELL_CONTRAST in colour from the cell ``(dr, dc)`` before it (the one a shift by
    ``(dr, dc)`` moves onto it). Cells are visited source first, so one pass settles all."""
    values = copy.deepcopy(state["values"])
    rows, cols = len(values), len(values[0])
    order = [(r, c) for r in (range(rows) if dr >= 0 else range(rows - 1, -1, -1))
             for c in (range(cols) if dc >= 0 else range(cols - 1, -1, -1))]
    for r, c in order:
        sr, sc = r - dr, c - dc
        if not (0 <= sr < rows and 0 <= sc < cols) or values[r][c] is None or values[sr][sc] is None:
            continue
        source = value_color(state, values[sr][sc])
        for _ in range(100):
            if delta_e(value_color(state, values[r][c]), source) >= CELL_CONTRAST:
                break
            values[r][c] = _draw_value(rng, state)
        else:
            raise RejectedSeed("no cell value far enough in colour from its shifted neighbour")
    return values


def shift_heatmap(base: dict, rng: random.Random):
    """Shift every cell 1-2 cells in a direction; cells pushed out disappear, exposed cells
    are left empty. The data is redrawn where a cell would move onto a cell of nearly its
    colour (see :func:`_contrast_along`), so the shift shows at every cell it changes."""
    direction = rng.choice(sorted(DIRECTIONS))
    steps = rng.randint(1, 2)
    dr, dc = (d * steps for d in DIRECTIONS[direction])
    base = copy.deepcopy(base)
    base["values"] = _contrast_along(rng, base, dr, dc)
    ans = copy.deepcopy(base)
    ans["values"] = shift_grid(base["values"], dr, dc)
    if ans["values"] == base["values"]:
        raise RejectedSeed("shift changes nothing")
    cells = "cell" if steps == 1 else "cells"
    instruction = (f"Shift the whole grid of colored cells {steps} {cells} {direction}: cells pushed past "
                   "the edge disappear and the cells left behind are empty. Keep the axes and colorbar.")
    return copy.deepcopy(base), ans, instruction, {"direction": direction, "steps": steps}


def mask_cells(base: dict, rng: random.Random):
    """Empty every cell above (or below) a stated value."""
    values = sorted(v for _, _, v in _cells(base) if v is not None)
    above = rng.random() < 0.5
    for _ in range(100):
        threshold = round_sig(values[0] + rng.uniform(0.2, 0.8) * (values[-1] - values[0]))
        if all(abs(v - threshold) >= THRESHOLD_CLEARANCE * (base["vmax"] - base["vmin"]) for v in values):
            break
    else:
        raise RejectedSeed("no mask threshold clear of the cell values")
    ans = copy.deepcopy(base)
    ans["values"] = [[None if v is not None and ((v > threshold) if above else (v < threshold)) else v
                      for v in row] for row in base["values"]]
    side = "above" if above else "below"
    instruction = (f"Mask every cell whose value is {side} {fmt(threshold)}: leave those cells empty "
                   "(background color), like the cells that are already empty.")
    return copy.deepcopy(base), ans, instruction, {"threshold": threshold, "side": side}


def change_colormap(base: dict, rng: random.Random):
    """Replace both endpoint colours of the colormap (cells and colorbar follow)."""
    low, high = sample_cmap(rng, [*object_avoid(base), *base["cmap"]], base["theme"]["background"],
                            old=base["cmap"])
    ans = copy.deepcopy(base)
    ans["cmap"] = [low, high]
    instruction = (f"Change the colormap to a linear gradient from {low} at {fmt(base['vmin'])} to {high} "
                   f"at {fmt(base['vmax'])}; recolor every cell and the colorbar accordingly.")
    return copy.deepcopy(base), ans, instruction, {"cmap": [low, high], "old_cmap": base["cmap"]}


TASKS = {"add_cell": add_cell, "shift_heatmap": shift_heatmap, "mask_cells": mask_cells,
         "change_colormap": change_colormap}

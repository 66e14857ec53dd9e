"""Semantic checks from the states: line chart, heatmap and network tasks (issue 12, item 4)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from chart_cases import chart_problem, task_slots
from chart_oracle import pixel_count, shifted, sig3


def _states(name, slot):
    p = chart_problem(name, slot)
    return p, p.metadata["input_state"], p.metadata["answer_state"]


def _numbers(text):
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", text)]


@pytest.mark.parametrize("name,slot", task_slots("line_chart", "draw_segments"))
def test_draw_segments_bridges_gaps_between_visible_runs(name, slot):
    _, inp, ans = _states(name, slot)
    assert len(inp["runs"]) >= 2 and all(len(run) >= 2 for run in inp["runs"])  # visible vertices
    (line,) = ans["runs"]
    assert line == [p for run in inp["runs"] for p in run]  # only the bridges are new
    assert 20 <= len(line) + sum(b - a for a, b in chart_problem(name, slot).metadata["params"]["gaps"]) <= 44


@pytest.mark.parametrize("name,slot", task_slots("line_chart", "normalize_series"))
def test_normalised_series_spans_lo_to_hi(name, slot):
    p, inp, ans = _states(name, slot)
    lo, hi = p.metadata["params"]["lo"], p.metadata["params"]["hi"]
    assert sig3(lo) and sig3(hi) and _numbers(p.instruction)[-2:] == [lo, hi]
    old = np.array(inp["runs"][0])
    new = np.array(ans["runs"][0])
    assert np.array_equal(new[:, 0], old[:, 0])
    assert np.isclose(new[:, 1].min(), lo, rtol=1e-12) and np.isclose(new[:, 1].max(), hi, rtol=1e-12)
    expected = lo + (old[:, 1] - old[:, 1].min()) * (hi - lo) / np.ptp(old[:, 1])
    assert np.allclose(new[:, 1], expected, rtol=1e-12, atol=1e-12 * abs(hi))


@pytest.mark.parametrize("name,slot", task_slots("line_chart", "filter_series"))
def test_filter_cuts_exactly_at_the_crossings(name, slot):
    p, inp, ans = _states(name, slot)
    t, keep = p.metadata["params"]["threshold"], p.metadata["params"]["keep"]
    assert sig3(t) and f"{keep} y = " in p.instruction
    sign = 1 if keep == "above" else -1
    xs, ys = np.array(inp["runs"][0]).T
    kept = [q for run in ans["runs"] for q in run]
    assert all(sign * (y - t) >= -1e-12 * abs(t) for _, y in kept)
    # every crossing of the original line appears as a cut point at exactly y = t
    crossings = []
    for i in range(len(xs) - 1):
        if (ys[i] - t) * (ys[i + 1] - t) < 0:
            crossings.append(xs[i] + (t - ys[i]) * (xs[i + 1] - xs[i]) / (ys[i + 1] - ys[i]))
    cuts = sorted(x for run in ans["runs"] for x, y in (run[0], run[-1]) if y == t)
    assert np.allclose(cuts, sorted(crossings), rtol=0, atol=1e-9)
    # every original vertex on the kept side is still drawn, the others are gone
    assert sorted(map(tuple, (q for q in kept if q[1] != t))) == \
        sorted((x, y) for x, y in zip(xs, ys, strict=True) if sign * (y - t) > 0)


@pytest.mark.parametrize("name,slot", task_slots("line_chart", "shade_interval"))
def test_shaded_interval_runs_from_a_to_b_under_the_line(name, slot):
    p, inp, ans = _states(name, slot)
    a, b = p.metadata["params"]["a"], p.metadata["params"]["b"]
    assert sig3(a) and sig3(b) and a < b
    (fill,) = ans["fills"]
    poly = np.array(fill["polygon"])
    assert poly[:, 0].min() == a and poly[:, 0].max() == b
    xs, ys = np.array(inp["runs"][0]).T
    top = poly[1:-1]
    assert np.allclose(top[:, 1], np.interp(top[:, 0], xs, ys), rtol=1e-12)
    assert np.all(poly[[0, -1], 1] == inp["ylim"][0])
    assert pixel_count(p.answer, fill["color"]) > 1000 and pixel_count(p.input, fill["color"]) == 0


@pytest.mark.parametrize("name,slot", task_slots("heatmap"))
def test_heatmap_rules_hold(name, slot):
    _, inp, _ = _states(name, slot)
    values = inp["values"]
    assert 4 <= len(values) <= 9 and 4 <= len(values[0]) <= 9
    assert any(v is None for row in values for v in row)  # at least one NaN cell
    assert len(inp["cmap"]) == 2


@pytest.mark.parametrize("name,slot", task_slots("heatmap", "add_cell"))
def test_add_cell_fills_the_stated_empty_cell(name, slot):
    p, inp, ans = _states(name, slot)
    row, col, value = (p.metadata["params"][k] for k in ("row", "column", "value"))
    assert inp["values"][row - 1][col - 1] is None and ans["values"][row - 1][col - 1] == value
    assert f"row {row}, column {col}" in p.instruction and sig3(value)


@pytest.mark.parametrize("name,slot", task_slots("heatmap", "shift_heatmap"))
def test_shifted_grid(name, slot):
    p, inp, ans = _states(name, slot)
    d, k = p.metadata["params"]["direction"], p.metadata["params"]["steps"]
    dr, dc = {"up": (-k, 0), "down": (k, 0), "left": (0, -k), "right": (0, k)}[d]
    assert ans["values"] == shifted(inp["values"], dr, dc)


@pytest.mark.parametrize("name,slot", task_slots("heatmap", "mask_cells"))
def test_mask_threshold(name, slot):
    p, inp, ans = _states(name, slot)
    t, side = p.metadata["params"]["threshold"], p.metadata["params"]["side"]
    assert sig3(t)
    for row_in, row_out in zip(inp["values"], ans["values"], strict=True):
        for v, w in zip(row_in, row_out, strict=True):
            masked = v is None or (v > t if side == "above" else v < t)
            assert w == (None if masked else v)
    assert sum(w is not None for row in ans["values"] for w in row) > 0


@pytest.mark.parametrize("name,slot", task_slots("heatmap", "change_colormap"))
def test_change_colormap_endpoints_appear_in_the_colorbar(name, slot):
    p, inp, ans = _states(name, slot)
    for color in ans["cmap"]:
        assert color in p.instruction and color not in inp["cmap"]
        # the colorbar's end rows are the endpoint colours (up to the 256-level LUT step)
        rgb = np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)])
        near = np.abs(p.answer.astype(int) - rgb).max(axis=-1) <= 4
        assert near.sum() > 50


@pytest.mark.parametrize("name,slot", task_slots("network"))
def test_network_rules_hold(name, slot):
    _, inp, ans = _states(name, slot)
    full = ans if name.endswith("add_node") else inp
    assert 5 <= len(full["nodes"]) <= 9
    labels = [n["label"] for n in full["nodes"]]
    assert all(any(lab in e for e in full["edges"]) for lab in labels)  # no isolated node
    assert [k["label"] for k in full["key"]] == labels


@pytest.mark.parametrize("name,slot", task_slots("network", "add_node"))
def test_added_node_has_the_listed_neighbours(name, slot):
    p, inp, ans = _states(name, slot)
    node = p.metadata["params"]["node"]
    listed = re.findall(r'"([^"]+)"', p.instruction.split("with an edge to ")[1])
    # plain English: one neighbour is named alone, two are "A" and "B", more "each of ..."
    assert ("each of" in p.instruction) == (len(listed) > 2) and "each of:" not in p.instruction
    got = {a if b == node else b for a, b in ans["edges"] if node in (a, b)}
    assert got == set(listed) and listed
    assert node not in {n["label"] for n in inp["nodes"]} and inp["key"] == ans["key"]


@pytest.mark.parametrize("name,slot", task_slots("network"))
def test_node_names_are_written_in_the_key_only(name, slot):
    # the authors' networks name nodes in the colour key alone: no text beside the nodes, so
    # an edit changes no text (pixels left of the key show no text colour at all)
    p, inp, _ = _states(name, slot)
    text = np.array([int(inp["theme"]["text"][i:i + 2], 16) for i in (1, 3, 5)])
    graph = p.input[100:, :700].astype(int)  # below the title, left of the key
    bg = np.array([int(inp["theme"]["background"][i:i + 2], 16) for i in (1, 3, 5)])
    # anti-aliased glyph pixels lie between text and background colours; edges and nodes
    # are drawn without anti-aliasing, so every pixel is exactly a drawn colour
    colors = {tuple(c) for c in graph.reshape(-1, 3)}
    allowed = {tuple(text), tuple(bg), *({tuple(int(n["color"][i:i + 2], 16) for i in (1, 3, 5))
                                         for n in inp["nodes"]})}
    assert colors <= allowed, sorted(colors - allowed)[:5]


@pytest.mark.parametrize("name,slot", task_slots("network", "remove_node"))
def test_removed_node_takes_its_edges_and_keeps_the_key(name, slot):
    p, inp, ans = _states(name, slot)
    node = p.metadata["params"]["node"]
    assert all(node not in e for e in ans["edges"])
    assert [e for e in inp["edges"] if node not in e] == ans["edges"]
    assert ans["key"] == inp["key"]


@pytest.mark.parametrize("name,slot", task_slots("network", "swap_nodes"))
def test_swapped_nodes_trade_slots(name, slot):
    p, inp, ans = _states(name, slot)
    a, b = p.metadata["params"]["nodes"]
    slot_in = {n["label"]: n["slot"] for n in inp["nodes"]}
    slot_out = {n["label"]: n["slot"] for n in ans["nodes"]}
    assert (slot_out[a], slot_out[b]) == (slot_in[b], slot_in[a])
    assert all(slot_out[k] == slot_in[k] for k in slot_in if k not in (a, b))
    assert ans["edges"] == inp["edges"]


@pytest.mark.parametrize("name,slot", task_slots("network", "recolor_node"))
def test_recolor_node_changes_node_and_key(name, slot):
    p, inp, ans = _states(name, slot)
    node, color = p.metadata["params"]["node"], p.metadata["params"]["color"]
    assert {n["label"]: n["color"] for n in ans["nodes"]}[node] == color
    assert {k["label"]: k["color"] for k in ans["key"]}[node] == color
    assert pixel_count(p.answer, color) > 100 and pixel_count(p.input, color) == 0

"""Network: state and its four tasks (add_node, swap_nodes, remove_node, recolor_node).

State (besides :mod:`paintkit.tinygrafix.common`): ``slots`` (positions evenly spaced on a
circle, slot 0 on top, clockwise), ``nodes``: ``[{"label", "color", "slot"}]``, ``edges``:
``[[label, label], ...]`` (straight lines between node centres, in the text colour), ``key``:
``[{"label", "color"}]`` (the colour key beside the graph; it lists every node of the
design, so it is kept when a node is removed). 5-9 nodes, each with at least one edge. A
node is named in the key only (its colour says which it is), as in the paper's charts, so
the edits move nodes and edges, not text.
"""

from __future__ import annotations

import copy
import random

from paintkit.tinygrafix.common import base_style, object_avoid
from paintkit.tinygrafix.style import distinct_labels, sample_color, sample_colors

CHART = "network"
EDGE_PROBABILITY = 0.35


def base_state(rng: random.Random) -> dict:
    """A fresh network (see the module docstring)."""
    state = base_style(CHART, rng, axis_labels=False)
    n = rng.randint(5, 9)
    labels = distinct_labels(rng, n)
    colors = sample_colors(rng, n, object_avoid(state))
    edges = [[labels[i], labels[j]] for i in range(n) for j in range(i + 1, n)
             if rng.random() < EDGE_PROBABILITY]
    for i in range(n):  # no isolated node
        if not any(labels[i] in e for e in edges):
            j = rng.choice([k for k in range(n) if k != i])
            edges.append(sorted([labels[i], labels[j]], key=labels.index))
    nodes = [{"label": labels[i], "color": colors[i], "slot": i} for i in range(n)]
    state.update(slots=n, nodes=nodes, edges=edges,
                 key=[{"label": nd["label"], "color": nd["color"]} for nd in nodes])
    return state


def neighbours(state: dict, label: str) -> list[str]:
    """Labels joined to ``label`` by an edge, in edge order."""
    return [a if b == label else b for a, b in state["edges"] if label in (a, b)]


def _node(state: dict, label: str) -> dict:
    return next(nd for nd in state["nodes"] if nd["label"] == label)


def _without(state: dict, label: str) -> dict:
    out = copy.deepcopy(state)
    out["nodes"] = [nd for nd in out["nodes"] if nd["label"] != label]
    out["edges"] = [e for e in out["edges"] if label not in e]
    return out


def _listing(labels: list[str]) -> str:
    """``"A"``; ``"A" and "B"``; ``each of "A", "B" and "C"``."""
    quoted = [f'"{x}"' for x in labels]
    if len(quoted) == 1:
        return quoted[0]
    joined = f'{", ".join(quoted[:-1])} and {quoted[-1]}'
    return joined if len(quoted) == 2 else f"each of {joined}"


def add_node(base: dict, rng: random.Random):
    """Input: one node and its edges missing (its place on the circle empty); answer: it is
    back with an edge to each listed neighbour."""
    target = rng.choice(base["nodes"])
    near = neighbours(base, target["label"])
    instruction = (f'Add the node "{target["label"]}" (color {target["color"]}, as in the key) at the '
                   f"empty position on the circle, the same size as the other nodes, and connect it "
                   f"with an edge to {_listing(near)}.")
    return _without(base, target["label"]), copy.deepcopy(base), instruction, {
        "node": target["label"], "neighbours": near, "slot": target["slot"]}


def swap_nodes(base: dict, rng: random.Random):
    """Two nodes trade places on the circle; edges follow them."""
    a, b = rng.sample([nd["label"] for nd in base["nodes"]], 2)
    ans = copy.deepcopy(base)
    na, nb = _node(ans, a), _node(ans, b)
    na["slot"], nb["slot"] = nb["slot"], na["slot"]
    instruction = (f'Swap the positions of nodes "{a}" and "{b}": each moves to the other\'s place and '
                   "keeps its color and its edges, which follow it.")
    return copy.deepcopy(base), ans, instruction, {"nodes": [a, b]}


def remove_node(base: dict, rng: random.Random):
    """Remove one node and its edges; the colour key stays as it is."""
    target = rng.choice(base["nodes"])
    instruction = (f'Remove the node "{target["label"]}" and every edge touching it; leave the color '
                   "key and every other node where they are.")
    return copy.deepcopy(base), _without(base, target["label"]), instruction, {
        "node": target["label"], "neighbours": neighbours(base, target["label"])}


def recolor_node(base: dict, rng: random.Random):
    """Recolour one node and its entry in the colour key."""
    target = rng.choice(base["nodes"])
    color = sample_color(rng, [*object_avoid(base), *(nd["color"] for nd in base["nodes"])])
    ans = copy.deepcopy(base)
    _node(ans, target["label"])["color"] = color
    next(k for k in ans["key"] if k["label"] == target["label"])["color"] = color
    instruction = (f'Recolor the node "{target["label"]}" to {color}, in the graph and in the color '
                   "key; change nothing else.")
    return copy.deepcopy(base), ans, instruction, {"node": target["label"], "color": color,
                                                  "old_color": target["color"]}


TASKS = {"add_node": add_node, "swap_nodes": swap_nodes, "remove_node": remove_node,
         "recolor_node": recolor_node}

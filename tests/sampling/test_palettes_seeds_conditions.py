"""Palettes, color names, seeds (pinned values) and the 8 visual conditions."""

import random

import pytest

from paintkit.colors import (
    NONSTANDARD,
    STANDARD,
    color_name,
    describe_color,
    hex_to_rgb,
    rgb_to_hex,
    split_palette,
)
from paintkit.conditions import CONDITIONS, get_condition
from paintkit.seeds import paintbench_seed, seed_from_key, tinygrafixbench_seed


def test_palettes_have_eleven_distinct_named_colors():
    for palette in (STANDARD, NONSTANDARD):
        assert len(palette) == 11
        assert len({c.rgb for c in palette}) == 11
        assert len({c.name for c in palette}) == 11
    assert hex_to_rgb("#0FE1DF") == (15, 225, 223)
    assert rgb_to_hex((15, 225, 223)) == "#0FE1DF"
    assert dict((c.name, c.hex) for c in STANDARD)["brown"] == "#8B4513"
    assert dict((c.name, c.hex) for c in NONSTANDARD)["jet black"] == "#101211"


def test_split_is_seeded_and_partitions_the_palette():
    a = split_palette("standard", random.Random(7))
    b = split_palette("standard", random.Random(7))
    assert a == b
    assert len(a.objects) == 9
    assert {a.background, a.holdout, *a.objects} == set(STANDARD)
    assert split_palette("standard", random.Random(8)) != a


def test_describer_names_palette_colors_and_hexes_others():
    assert describe_color((255, 0, 0)) == "red"
    assert describe_color((15, 225, 223)) == "cyan"
    assert describe_color((1, 2, 3)) == "#010203"
    assert color_name((1, 2, 3)) is None
    with pytest.raises(ValueError):
        hex_to_rgb("0FE1DF")


def test_seeds_are_pinned():
    # int.from_bytes(sha256(key).digest()[:8], "big"), key = "|".join(parts)
    assert paintbench_seed("translation", "baseline", "amount", 0, 0) == 11228419883875391222
    assert paintbench_seed("flood_fill", "striped", "background", 11, 3) == 6431919589764954920
    assert tinygrafixbench_seed("heatmap", "add_cell", 0) == 69872871333155490  # key ...|0|0
    assert seed_from_key("paintbench", "translation", "baseline", "amount", 0, 0) == \
        paintbench_seed("translation", "baseline", "amount", 0)
    assert paintbench_seed("translation", "baseline", "amount", 0, namespace="mine") != \
        paintbench_seed("translation", "baseline", "amount", 0)


def test_conditions():
    assert len(CONDITIONS) == 8
    assert (get_condition("horizontal").width, get_condition("horizontal").height) == (1024, 576)
    assert (get_condition("vertical").width, get_condition("vertical").height) == (576, 1024)
    assert get_condition("nonstandard").palette == "nonstandard"
    assert get_condition("striped").striped
    assert [get_condition(c).object_count() for c in ("baseline", "n_med", "n_high", "n_xhigh")] \
        == [3, 10, 25, 60]
    assert get_condition("n_xhigh").object_count("comparison") == 9
    assert get_condition("n_high").object_count("pattern") == 6
    assert get_condition("n_med").object_count("counting") == 10
    assert get_condition("striped").object_count("counting") == 5
    with pytest.raises(ValueError, match="allowed: baseline, horizontal"):
        get_condition("sunny")

"""Old names keep working for one version and say what replaces them."""

from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest

import paintkit
from paintkit.kernels import delta_e as delta_e_module
from paintkit.kernels import delta_e_counts, delta_e_numba
from paintkit.metrics import targets


def test_reference_is_targets():
    import paintkit.metrics as metrics

    with pytest.warns(DeprecationWarning, match=r"paintkit.metrics.Reference .*Targets"):
        assert metrics.Reference is targets.Targets
    with pytest.warns(DeprecationWarning, match="prepare_targets"):
        prepare_reference = metrics.prepare_reference
    assert prepare_reference is targets.prepare_targets
    ref = paintkit.prepare_targets(np.zeros((1, 4, 4, 3), np.uint8), np.zeros((1, 4, 4, 3), np.uint8))
    assert isinstance(ref, paintkit.Targets)


def test_old_reference_module_warns_and_serves_targets():
    sys.modules.pop("paintkit.metrics.reference", None)
    with pytest.warns(DeprecationWarning, match="paintkit.metrics.targets"):
        module = importlib.import_module("paintkit.metrics.reference")
    assert module.Targets is targets.Targets
    with pytest.warns(DeprecationWarning):
        assert module.Reference is targets.Targets


def test_explain_problem_is_explain():
    from paintkit.explain import explain_problem

    image = np.zeros((6, 6, 3), np.uint8)
    with pytest.warns(DeprecationWarning, match="explain_problem"):
        got = explain_problem({}, image, image, image)  # the old name, the old order
    assert got == paintkit.explain(image, image, image, {})


@pytest.mark.parametrize(("function", "args"), [
    (delta_e_numba.delta_e_numba, (np.zeros((2, 3)), np.ones((2, 3)))),
    (delta_e_numba.delta_e_rgb_numba, (np.zeros((2, 3), np.uint8), np.ones((2, 3), np.uint8))),
    (delta_e_numba.within_delta_e_rgb, (np.zeros((2, 3), np.uint8), np.ones((2, 3), np.uint8), 1.0)),
])
def test_formula_keyword_is_delta_e(function, args):
    new = function(*args, delta_e="ciede2000")
    with pytest.warns(DeprecationWarning, match=r"formula=\.\.\.\) is deprecated.*delta_e="):
        old = function(*args, formula="ciede2000")
    np.testing.assert_array_equal(old, new)
    with pytest.raises(TypeError, match="both delta_e= and"):
        function(*args, delta_e="cie76", formula="cie76")


def test_formula_keyword_in_the_torch_kernels_and_histograms():
    import torch

    lab = torch.tensor([[50.0, 2.6772, -79.7751]], dtype=torch.float64)
    other = torch.tensor([[50.0, 0.0, -82.7485]], dtype=torch.float64)
    new = delta_e_module.delta_e_torch(lab, other, delta_e="ciede2000")
    with pytest.warns(DeprecationWarning):
        assert torch.equal(delta_e_module.delta_e_torch(lab, other, formula="ciede2000"), new)
    batch = [np.zeros((1, 4, 4, 3), np.uint8)] * 3
    with pytest.warns(DeprecationWarning):
        old = delta_e_counts.tolerance_histograms_delta_e(*batch, formula="cie94")
    np.testing.assert_array_equal(
        old, delta_e_counts.tolerance_histograms_delta_e(*batch, delta_e="cie94"))


def test_check_formula_is_check_delta_e():
    with pytest.warns(DeprecationWarning, match="check_delta_e"):
        assert delta_e_module.check_formula("cie94") == "cie94"
    with pytest.raises(ValueError, match="delta_e: expected one of"):
        delta_e_module.check_delta_e("lab")


def test_composition_is_scene_parts():
    import paintkit.scene_parts.placement as placement

    for name in [n for n in sys.modules if n == "paintkit.composition" or
                 n.startswith("paintkit.composition.")]:
        sys.modules.pop(name)
    with pytest.warns(DeprecationWarning, match="paintkit.scene_parts"):
        from paintkit.composition.placement import edge_margin
    assert edge_margin is placement.edge_margin
    from paintkit.composition import glyphs, marks

    assert glyphs is importlib.import_module("paintkit.scene_parts.glyphs")
    assert marks.OUTLINE_WIDTH == 4


def test_one_encode_png_and_write_png_keeps_its_bytes(tmp_path):
    imagecodecs = pytest.importorskip("imagecodecs")
    from paintkit.io import images, png_encode

    image = np.random.default_rng(0).integers(0, 256, (33, 17, 3), dtype=np.uint8)
    expected = bytes(imagecodecs.png_encode(image, level=1))  # what write_png always wrote
    assert png_encode.encode_png(image, "imagecodecs") == expected
    images.write_png(tmp_path / "a.png", image)
    assert (tmp_path / "a.png").read_bytes() == expected
    with pytest.warns(DeprecationWarning, match="paintkit.io.png_encode.encode_png"):
        assert images.encode_png(image) == expected
    assert png_encode.encoder_info("imagecodecs")["name"] == "imagecodecs"


def test_balanced_is_subsets():
    import paintkit.subsets as subsets

    sys.modules.pop("paintkit.balanced", None)
    with pytest.warns(DeprecationWarning, match="paintkit.subsets"):
        from paintkit.balanced import balanced_subset
    assert balanced_subset is subsets.balanced_subset
    assert sys.modules["paintkit.balanced"] is subsets


def test_reward_check_tolerance_keeps_accepting_none():
    reward_module = importlib.import_module("paintkit.metrics.reward")

    with pytest.warns(DeprecationWarning, match="allow_none=True"):
        check = reward_module.check_tolerance
    assert check(None) is None and check(np.int64(4)) == 4
    with pytest.raises(ValueError, match="None or an integer 0..10"):
        check(11)


def test_rewards_batch_targets():
    plain = importlib.import_module("paintkit.rewards.plain")
    with pytest.warns(DeprecationWarning, match="batch_targets"):
        assert plain.prepare_targets is plain.batch_targets
    image = np.zeros((2, 4, 4, 3), np.uint8)
    assert isinstance(plain.batch_targets({"answer": image, "input": image}), paintkit.Targets)

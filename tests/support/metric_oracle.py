"""A plain NumPy implementation of the metric, written straight from docs/metric-definition.md.

Deliberately naive (no caching, one pass per tolerance) and sharing no code with the
package: it is the reference every kernel is compared against (§9). Its Lab is the
canonical arithmetic of §3 (float64 basic operations, rounded to float32 once), so it gives
the same bits on every machine.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image

F = np.float32
TOLERANCES = range(11)
KEYS = ("edit_correct_pixels", "preservation_correct_pixels", "edit_accuracy",
        "preservation_accuracy", "iou", "changed_pixels")


def decode(image) -> np.ndarray:
    """SPEC 1.1: any image (path, PIL, array) -> uint8 (H, W, 3) as Pillow convert("RGB")."""
    if isinstance(image, np.ndarray):
        return image
    if not isinstance(image, Image.Image):
        image = Image.open(image)
    return np.asarray(image.convert("RGB"))


def normalise(output: np.ndarray, answer_w: int, answer_h: int) -> np.ndarray:
    """SPEC 1.2 with Pillow itself: nearest resize by max scale, then centre crop."""
    h_o, w_o = output.shape[:2]
    if (w_o, h_o) == (answer_w, answer_h):
        return output
    scale = max(answer_w / w_o, answer_h / h_o)
    nw, nh = math.ceil(w_o * scale), math.ceil(h_o * scale)
    resized = Image.fromarray(output).resize((nw, nh), Image.NEAREST)
    x, y = (nw - answer_w) // 2, (nh - answer_h) // 2
    return np.asarray(resized.crop((x, y, x + answer_w, y + answer_h)))


def linear_srgb() -> np.ndarray:
    """docs/metric-definition.md §3.1: the 256 linear values, float64 nearest to the exact
    sRGB curve, computed here in 60-digit decimal arithmetic (not read from the package)."""
    from decimal import Decimal, localcontext

    values = []
    with localcontext() as ctx:
        ctx.prec = 60
        for v in range(256):
            c = Decimal(v) / Decimal(255)
            if c <= Decimal("0.04045"):
                x = c / Decimal("12.92")
            else:
                x = ((c + Decimal("0.055")) / Decimal("1.055")) ** Decimal("2.4")
            values.append(float(x))  # Decimal -> float rounds correctly
    return np.array(values, np.float64)


LINEAR = linear_srgb()


def cbrt(t: np.ndarray) -> np.ndarray:
    """§3.4: the canonical cube root of float64 ``t`` in ``[(6/29)^3, 8)``, + - x / only."""
    t = np.array(t, np.float64)
    s = np.ones_like(t)
    for _ in range(3):
        small = t < 0.125
        t = np.where(small, t * 8.0, t)
        s = np.where(small, s * 0.5, s)
    y = 0.5 + 0.5 * t
    for _ in range(3):
        y3 = (y * y) * y
        y = y - (y * (y3 - t)) / ((y3 + y3) + t)
    return s * y


def lab(rgb: np.ndarray) -> np.ndarray:
    """§3, the canonical L*a*b*: uint8 ``(..., 3)`` -> float32 ``(..., 3)``.

    float64 from the table on, each operation a separate IEEE ufunc, rounded to float32 at
    the end. No ``np.cbrt`` and no ``np.power`` (their float32 results depend on the CPU).
    """
    rgb = np.asarray(rgb)
    r, g, b = (LINEAR[rgb[..., k]] for k in range(3))
    x = ((0.4124564 * r + 0.3575761 * g) + 0.1804375 * b) / 0.95047
    y = ((0.2126729 * r + 0.7151522 * g) + 0.0721750 * b) / 1.00000
    z = ((0.0193339 * r + 0.1191920 * g) + 0.9503041 * b) / 1.08883
    eps, kappa, offset = 216.0 / 24389.0, 841.0 / 108.0, 4.0 / 29.0

    def f(t):
        return np.where(t > eps, cbrt(np.maximum(t, eps)), kappa * t + offset)

    fx, fy, fz = f(x), f(y), f(z)
    return np.stack([116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)],
                    axis=-1).astype(F)


def delta_e(lab_a: np.ndarray, lab_b: np.ndarray) -> np.ndarray:
    """§4: CIE76 per pixel, float32, ``sqrt((dL*dL + da*da) + db*db)``."""
    d = (lab_a - lab_b).astype(F)
    return np.sqrt((d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]) + d[..., 2] * d[..., 2])


def paper_lab(rgb: np.ndarray) -> np.ndarray:
    """The paper's formulas run naively in float32 NumPy (``np.cbrt``, ``** 2.4``): NOT the
    metric. Its bits depend on the CPU's SIMD path; tests use it only to bound how far the
    canonical Lab lies from it."""
    c = np.asarray(rgb).astype(F) / F(255)
    linear = np.where(c <= F(0.04045), c / F(12.92), ((c + F(0.055)) / F(1.055)) ** F(2.4))
    m = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]], dtype=F)
    r, g, b = linear[..., 0], linear[..., 1], linear[..., 2]
    x = (m[0, 0] * r + m[0, 1] * g + m[0, 2] * b) / F(0.95047)
    y = (m[1, 0] * r + m[1, 1] * g + m[1, 2] * b) / F(1.00000)
    z = (m[2, 0] * r + m[2, 1] * g + m[2, 2] * b) / F(1.08883)

    def f(t):
        return np.where(t > F((6 / 29) ** 3), np.cbrt(t),
                        F((29 / 6) ** 2 / 3) * t + F(4 / 29)).astype(F)

    fx, fy, fz = f(x), f(y), f(z)
    return np.stack([F(116) * fy - F(16), F(500) * (fx - fy), F(200) * (fy - fz)], axis=-1)


def problem_stats(output, answer, inp) -> dict:
    """The SPEC 5 ``output`` dict of one problem; ``output=None`` means missing (SPEC 1.8)."""
    answer, inp = decode(answer), decode(inp)
    h, w = answer.shape[:2]
    edit = (answer != inp).any(axis=-1)
    n_edit, n_pres = int(edit.sum()), int((~edit).sum())
    per_t = {}
    if output is None:
        for t in TOLERANCES:
            per_t[str(t)] = dict.fromkeys(KEYS, 0)
            per_t[str(t)]["edit_accuracy"] = 0.0
            per_t[str(t)]["preservation_accuracy"] = 0.0
            per_t[str(t)]["iou"] = 1.0 if n_edit + n_pres == 0 else 0.0
        size = None
    else:
        output = decode(output)
        size = [output.shape[1], output.shape[0]]
        out = normalise(output, w, h)
        lab_o, lab_a, lab_i = lab(out), lab(answer), lab(inp)
        de_oa, de_oi = delta_e(lab_o, lab_a), delta_e(lab_o, lab_i)
        for t in TOLERANCES:
            correct = de_oa <= F(t)
            ce = int((correct & edit).sum())
            cp = int((correct & ~edit).sum())
            ip = n_pres - cp
            denom = n_edit + ip
            per_t[str(t)] = {
                "edit_correct_pixels": ce,
                "preservation_correct_pixels": cp,
                "edit_accuracy": ce / n_edit if n_edit else 1.0,
                "preservation_accuracy": cp / n_pres if n_pres else 1.0,
                "iou": ce / denom if denom else 1.0,
                "changed_pixels": int((de_oi > F(t)).sum()),
            }
    mean = {k: sum(per_t[str(t)][k] for t in TOLERANCES) / 11 for k in KEYS}
    return {"output_size": size, "edit_pixels": n_edit, "preservation_pixels": n_pres,
            "cie76_threshold": per_t, "cie76_mean": mean}


def near_integer_pixels(output, answer, inp, margin: float = 1e-3) -> tuple[int, int]:
    """Pixels whose ΔE(O,A) / ΔE(O,I) lie within ``margin`` of an integer in 0..10.

    SPEC 1.9 lets a kernel's counts differ from the oracle's only on such pixels.
    """
    answer, inp = decode(answer), decode(inp)
    out = normalise(decode(output), answer.shape[1], answer.shape[0])
    lab_o = lab(out)
    counts = []
    for ref in (answer, inp):
        de = delta_e(lab_o, lab(ref))
        near = np.zeros(de.shape, bool)
        for t in TOLERANCES:
            near |= np.abs(de - F(t)) <= margin
        counts.append(int(near.sum()))
    return counts[0], counts[1]

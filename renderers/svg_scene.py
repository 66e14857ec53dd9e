"""Scene -> editable SVG text: one SVG element per scene element, ids kept.

The SVG draws the same geometry the Skia renderer fills (:mod:`paintkit.renderers.skia_scene`):

- the background is ``<rect id="background">``; striped backgrounds add
  ``<path id="background-stripes">`` made of the stripe colour's pixel runs (the stripes are
  defined per pixel, so their exact vector form is the set of pixel rows they cover);
- a :class:`~paintkit.scene.Shape` or :class:`~paintkit.scene.Polygon` is one ``<path>``
  (its flattened outline, filled with the nonzero rule) or, when it has a fill and a
  stroke, one ``<g>`` holding the fill path and the stroke path (the stroke's exact outline
  from :func:`paintkit.shapes.stroke_outline`, filled, so no SVG stroker is involved);
- a :class:`~paintkit.scene.Line` is one ``<path>`` (its round-capped capsule).

Every element's ``id`` attribute is the scene element's id (the ids in the problem JSON's
``scene`` and ``targets``); ``data-kind`` and, for shapes, ``data-type`` say what it is.
The root carries ``shape-rendering="crispEdges"``, so renderers that honour it (resvg)
fill aliased, pixel centre in or out, like the Skia render.

Problems whose answer is computed in pixel space (flood fill, gradients, blending, ...)
have no answer scene. :func:`scene_svg` given the pixels then draws the closest scene and adds
``<g id="pixel-edits">``: one path per colour, made of the pixel runs where the image
differs from that scene's render (and the pixels next to them), so the SVG still renders to
the image, exactly there. :func:`reference_svgs` draws a problem's reference images the same
way, from the metadata's ``reference_scenes``.
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

import numpy as np

from paintkit.colors import rgb_to_hex
from paintkit.kernels.color_mask import color_mask
from paintkit.kernels.edit_region import changed_mask_numba
from paintkit.kernels.stripes import paint_background
from paintkit.renderers.skia_scene import render
from paintkit.scene import RGB, Element, Line, Polygon, Scene, Shape
from paintkit.shapes.outlines import shape_outline
from paintkit.shapes.strokes import capsule_outline, stroke_outline


def _path_data(contours: list[np.ndarray]) -> str:
    """SVG path data of closed polylines ``(N, 2)`` (batches ``(M, N, 2)`` allowed)."""
    parts = []
    for c in contours:
        c = np.asarray(c, np.float64)
        for poly in (c[None] if c.ndim == 2 else c):
            if len(poly) < 2:
                continue
            # every vertex as the float64 the PNG renderer fills (repr round-trips exactly),
            # so paintkit.svg draws the file back to the PNG's pixels; + 0.0: no -0.0
            exact = (poly + 0.0).ravel().tolist()
            parts.append(f"M{' '.join(map(repr, exact))}Z")
    return "".join(parts)


def _pieces(element: Element) -> list[tuple[str, list[np.ndarray], RGB]]:
    """``(role, contours, colour)`` of everything ``element`` paints, in drawing order."""
    out: list[tuple[str, list[np.ndarray], RGB]] = []
    if isinstance(element, Shape):
        outline = shape_outline(element)
        if element.fill is not None:
            out.append(("fill", outline, element.fill))
        if element.stroke is not None:
            pieces = [p for c in outline for p in stroke_outline(c, element.stroke.width, True)]
            out.append(("stroke", pieces, element.stroke.color))
    elif isinstance(element, Polygon):
        points = np.asarray(element.points, np.float64)
        if element.fill is not None:
            out.append(("fill", [points], element.fill))
        if element.stroke is not None:
            pieces = stroke_outline(points, element.stroke.width, element.closed)
            out.append(("stroke", list(pieces), element.stroke.color))
    elif isinstance(element, Line):
        out.append(("fill", [capsule_outline(element.start, element.end, element.width)],
                    element.color))
    else:
        raise ValueError(f"cannot write {type(element).__name__} as SVG; elements are Shape, "
                         "Polygon or Line")
    return out


def _element_svg(element: Element) -> str:
    kind = type(element).__name__.lower()
    attrs = f"id={quoteattr(element.id)} data-kind=\"{kind}\""
    if isinstance(element, Shape):
        attrs += f" data-type=\"{element.type}\""
    pieces = _pieces(element)
    if len(pieces) == 1:
        role, contours, color = pieces[0]
        return (f"<path {attrs} class=\"{role}\" fill=\"{rgb_to_hex(color)}\" "
                f"d=\"{_path_data(contours)}\"/>")
    inner = "".join(f"<path class=\"{role}\" fill=\"{rgb_to_hex(color)}\" "
                    f"d=\"{_path_data(contours)}\"/>" for role, contours, color in pieces)
    return f"<g {attrs}>{inner}</g>"


def _runs_data(mask: np.ndarray) -> str:
    """Path data of the pixels of bool ``(H, W)`` ``mask``: one rectangle per run of pixels,
    a run repeated in the rows below it (same start and end) joined into one taller
    rectangle."""
    h, w = mask.shape
    padded = np.zeros((h, w + 2), np.int8)
    padded[:, 1:-1] = mask
    step = np.diff(padded, axis=1)
    rows, starts = np.nonzero(step == 1)
    _, ends = np.nonzero(step == -1)  # row-major order: the k-th end closes the k-th start
    open_runs: dict[tuple[int, int], list[int]] = {}  # (start, end) -> [top row, rows]
    done: list[tuple[int, int, int, int]] = []
    last_row = -1
    for y, x, e in zip(rows.tolist(), starts.tolist(), ends.tolist(), strict=True):
        if y != last_row:
            for key, (top, n) in list(open_runs.items()):
                if top + n < y:  # not continued in the row just finished
                    done.append((top, key[0], key[1], n))
                    del open_runs[key]
            last_row = y
        run = open_runs.get((x, e))
        if run is not None and run[0] + run[1] == y:
            run[1] += 1
        else:
            if run is not None:
                done.append((run[0], x, e, run[1]))
            open_runs[(x, e)] = [y, 1]
    done.extend((top, x, e, n) for (x, e), (top, n) in open_runs.items())
    done.sort()
    return "".join(f"M{x} {y}h{e - x}v{n}h{x - e}z" for y, x, e, n in done)


def _background_svg(scene: Scene) -> str:
    w, h = scene.canvas.width, scene.canvas.height
    bg = scene.background
    out = f"<rect id=\"background\" x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" " \
          f"fill=\"{rgb_to_hex(bg.color)}\"/>"
    s = bg.stripes
    if s is not None:
        pixels = np.zeros((h, w, 4), np.uint8)
        paint_background(pixels, bg.color, s.color, orientation=s.orientation,
                         band_width=s.band_width, waveform=s.waveform, amplitude=s.amplitude,
                         frequency=s.frequency, phase=s.phase)
        stripe = color_mask(np.ascontiguousarray(pixels[..., :3]), [s.color])
        if s.color == bg.color:
            stripe[:] = False
        out += (f"<path id=\"background-stripes\" fill=\"{rgb_to_hex(s.color)}\" "
                f"d=\"{_runs_data(stripe)}\"/>")
    return out


def _edits_svg(scene: Scene, pixels: np.ndarray) -> str:
    expected = (scene.canvas.height, scene.canvas.width, 3)
    if pixels.shape != expected or pixels.dtype != np.uint8:
        raise ValueError(f"pixels must be uint8 {expected} (the scene's canvas), got "
                         f"{pixels.dtype} {pixels.shape}")
    diff = changed_mask_numba(render(scene), pixels)
    if not diff.any():
        return ""
    # Also pin the ring of pixels around the changes: there an SVG renderer's edge rounding
    # would otherwise show a scene colour the image no longer has next to them.
    grown = np.pad(diff, 1)
    diff = np.zeros_like(diff)
    h, w = diff.shape
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            diff |= grown[dy:dy + h, dx:dx + w]
    # Runs of one colour along each row, found at once for every colour: pack each pixel's
    # colour into one int (-1 outside the patch) and cut rows where it changes.
    packed = (pixels[..., 0].astype(np.int64) << 16) | (pixels[..., 1].astype(np.int64) << 8) \
        | pixels[..., 2].astype(np.int64)
    packed[~diff] = -1
    h, w = diff.shape
    bounded = np.full((h, w + 2), -1, np.int64)
    bounded[:, 1:-1] = packed
    cut = bounded[:, 1:] != bounded[:, :-1]  # (h, w + 1): a run starts or ends here
    rows, cols = np.nonzero(cut)
    keep = cols < w
    run_rows, run_starts = rows[keep], cols[keep]
    colours = packed[run_rows, run_starts]
    inside = colours >= 0
    run_rows, run_starts, colours = run_rows[inside], run_starts[inside], colours[inside]
    # each run ends at the next cut of its row
    next_cut = np.searchsorted(rows * (w + 1) + cols, run_rows * (w + 1) + run_starts, side="right")
    run_ends = cols[next_cut]
    order = np.lexsort((run_starts, run_rows, colours))
    paths, current, parts = [], None, []
    for i in order.tolist():
        colour = int(colours[i])
        if colour != current:
            if parts:
                paths.append(f"<path fill=\"#{current:06X}\" d=\"{''.join(parts)}\"/>")
            current, parts = colour, []
        x, y, e = int(run_starts[i]), int(run_rows[i]), int(run_ends[i])
        parts.append(f"M{x} {y}h{e - x}v1h{x - e}z")
    if parts:
        paths.append(f"<path fill=\"#{current:06X}\" d=\"{''.join(parts)}\"/>")
    return f"<g id=\"pixel-edits\">{''.join(paths)}</g>"


def scene_svg(scene: Scene, pixels: np.ndarray | None = None) -> str:
    """The SVG document of ``scene`` (see the module docstring).

    Args:
        scene: what to draw; its canvas is the SVG's size (``viewBox="0 0 W H"``, 1 unit
            per pixel).
        pixels: optional uint8 ``(H, W, 3)`` image the SVG must render to; pixels where it
            differs from the scene's render are added as ``<g id="pixel-edits">``.
    """
    if not isinstance(scene, Scene):
        raise ValueError(f"scene must be a paintkit.scene.Scene, got {type(scene).__name__}")
    w, h = scene.canvas.width, scene.canvas.height
    body = [_background_svg(scene)] + [_element_svg(e) for e in scene.elements]
    if pixels is not None:
        body.append(_edits_svg(scene, pixels))
    return (f"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" "
            f"viewBox=\"0 0 {w} {h}\" shape-rendering=\"crispEdges\">\n"
            + "\n".join(part for part in body if part) + "\n</svg>\n")


def problem_svgs(metadata: dict, input_pixels: np.ndarray,
                 answer_pixels: np.ndarray) -> tuple[str, str]:
    """``(input_svg, answer_svg)`` of a problem from its metadata's ``scene`` and
    ``answer_scene`` (the input scene plus pixel edits when there is no answer scene).

    Raises:
        ValueError: the metadata holds no ``scene`` (chart problems are not scenes).
    """
    if "scene" not in metadata:
        raise ValueError(f"problem {metadata.get('problem_id', '?')} has no 'scene' in its "
                         "metadata; only scene-based problems (PaintBench) can be written as SVG")
    scene = Scene.from_dict(metadata["scene"])
    answer_scene = (Scene.from_dict(metadata["answer_scene"]) if "answer_scene" in metadata
                    else scene)
    return scene_svg(scene, input_pixels), scene_svg(answer_scene, answer_pixels)


def reference_svgs(metadata: dict, reference_pixels) -> tuple[str, ...]:
    """The SVG of each reference image of a problem, in order: reference ``n`` (1-based) is
    :func:`scene_svg` of the metadata's ``reference_scenes[n - 1]`` with pixels
    ``reference_pixels[n - 1]`` (uint8 ``(H, W, 3)``), so differences from the scene's render
    are drawn as pixel edits; ``()`` for a problem without references.

    Raises:
        ValueError: the problem has references but no ``reference_scenes`` with one scene
            per reference (references that are not scenes: charts, attached images).
    """
    reference_pixels = list(reference_pixels)
    if not reference_pixels:
        return ()
    scenes = metadata.get("reference_scenes")
    if not isinstance(scenes, list) or len(scenes) != len(reference_pixels):
        found = f"{len(scenes)} scene(s)" if isinstance(scenes, list) else "no reference_scenes"
        raise ValueError(f"problem {metadata.get('problem_id', '?')} has "
                         f"{len(reference_pixels)} reference image(s) and {found} in its "
                         "metadata; only references drawn from scenes can be written as SVG")
    return tuple(scene_svg(Scene.from_dict(scene), pixels)
                 for scene, pixels in zip(scenes, reference_pixels, strict=True))

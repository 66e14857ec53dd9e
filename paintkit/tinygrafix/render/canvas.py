"""The one matplotlib setup every chart is drawn with: Agg, 1024x768, pinned rcParams.

Pixels are byte-identical across runs, processes and machines because nothing the output
depends on is left to the environment:

- the figure is drawn by ``FigureCanvasAgg`` directly (no pyplot, no backend selection);
- rcParams start from matplotlib's built-in defaults (never a user's ``matplotlibrc``) and
  :data:`CHART_RC` then sets every parameter the drawing depends on explicitly;
- every text uses the DejaVu Sans file matplotlib ships (:func:`bundled_font_path`), checked on
  first use;
- the matplotlib release is checked when a problem is generated
  (:mod:`paintkit.tinygrafix.environment`: the Agg rasteriser and the font hinting are part of
  the pixels; ``paintkit[charts]`` installs that release).

Data is drawn without anti-aliasing (text keeps it), so every pixel an edit changes
changes by a whole colour difference, and the axis lines are drawn again over the data.

One figure per process is reused (cleared between charts): creating a ``Figure`` and its
canvas costs more than clearing one; an answer whose frame matches its input's reuses the
rasterised frame too (:func:`render_states`).
"""

from __future__ import annotations

import os
import threading

import numpy as np

from paintkit.kernels.pixels import rgba_to_rgb

WIDTH, HEIGHT, DPI = 1024, 768, 160
FIGSIZE = (WIDTH / DPI, HEIGHT / DPI)  # 6.4 x 4.8 inches

#: Every rcParam the chart pixels depend on (on top of matplotlib's built-in defaults).
CHART_RC = {
    "figure.dpi": DPI, "savefig.dpi": DPI, "figure.figsize": FIGSIZE,
    "figure.autolayout": False, "figure.constrained_layout.use": False,
    "font.family": ["sans-serif"], "font.sans-serif": ["DejaVu Sans"], "font.size": 9.0,
    "font.style": "normal", "font.weight": "normal", "font.stretch": "normal",
    "axes.titlesize": 11.0, "axes.titleweight": "normal", "axes.titlepad": 6.0,
    "axes.labelsize": 9.0, "axes.labelpad": 4.0, "axes.linewidth": 1.0,
    "xtick.labelsize": 8.0, "ytick.labelsize": 8.0, "legend.fontsize": 8.0,
    "xtick.major.size": 3.5, "ytick.major.size": 3.5, "xtick.major.width": 0.8,
    "ytick.major.width": 0.8, "xtick.minor.visible": False, "ytick.minor.visible": False,
    "xtick.direction": "out", "ytick.direction": "out",
    "axes.formatter.limits": [-5, 6], "axes.formatter.useoffset": False,
    "axes.formatter.use_mathtext": False, "axes.formatter.use_locale": False,
    "axes.unicode_minus": False, "text.parse_math": False, "text.usetex": False,
    "text.hinting": "default", "text.hinting_factor": None, "text.kerning_factor": None,
    # Geometry without anti-aliasing: a data pixel is wholly its colour or wholly what lies
    # under it, so every pixel an edit changes changes by a full colour difference. Text stays
    # anti-aliased (legible).
    "text.antialiased": True, "lines.antialiased": False, "patch.antialiased": False,
    "lines.linewidth": 2.0, "lines.solid_capstyle": "projecting", "lines.solid_joinstyle": "round",
    "path.simplify": False, "path.snap": True, "agg.path.chunksize": 0,
    "axes.xmargin": 0.0, "axes.ymargin": 0.0, "axes.autolimit_mode": "data",
    "axes.grid": False, "axes.axisbelow": "line",
    "image.interpolation": "nearest", "image.resample": False,
    "legend.frameon": True, "legend.framealpha": 1.0, "legend.fancybox": False,
    "legend.loc": "upper left", "legend.borderaxespad": 0.5, "legend.handlelength": 1.5,
    "legend.numpoints": 1, "legend.scatterpoints": 1, "legend.markerscale": 1.0,
    "scatter.marker": "o", "scatter.edgecolors": "face",
}

# Process settings, not drawing style (matplotlib's own style loader skips these too).
_NOT_STYLE = ("backend", "backend_fallback", "interactive", "toolbar", "timezone", "date.epoch",
              "figure.max_open_warning", "figure.raise_window", "savefig.directory",
              "tk.window_focus", "docstring.hardcopy")

#: ``antialiased=`` of a marker collection (scatter points, network nodes). A collection with
#: one antialiasing flag and one marker is drawn by Agg's marker path, which anti-aliases
#: whatever the flag says; two flags take the general path, which honours them.
MARKERS_ALIASED = [False, False]

_state: dict = {}
# One figure per process: threads of a process take turns drawing on it.
_lock = threading.RLock()


def bundled_font_path() -> str:
    """The DejaVu Sans file inside the installed matplotlib."""
    import matplotlib as mpl

    return os.path.join(mpl.get_data_path(), "fonts", "ttf", "DejaVuSans.ttf")


def _full_rc() -> dict:
    """Built-in defaults (style ``default``: nothing from the user's matplotlibrc) + CHART_RC."""
    import matplotlib as mpl

    rc = {k: v for k, v in mpl.rcParamsDefault.items()
          if k not in _NOT_STYLE and not k.startswith("webagg.")}
    for key, value in CHART_RC.items():
        # Every setting holds on the release the bytes are made with (paintkit.tinygrafix.environment);
        # another release (--any-matplotlib) may lack a key or reject a value: it keeps its default.
        try:
            mpl.rcParams.validate[key](value)
        except (KeyError, ValueError, TypeError):
            continue
        rc[key] = value
    return rc


def _setup() -> dict:
    with _lock:
        return _state or _create_state()


def _create_state() -> dict:
    import matplotlib as mpl
    from matplotlib import font_manager
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rc = _full_rc()
    with mpl.rc_context(rc):
        found = os.path.realpath(font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans")))
        if found != os.path.realpath(bundled_font_path()):
            raise RuntimeError(f"matplotlib resolves 'DejaVu Sans' to {found}, not the copy it ships "
                               f"({bundled_font_path()}); chart pixels would depend on this machine")
        figure = Figure(figsize=FIGSIZE, dpi=DPI)
        FigureCanvasAgg(figure)
    _state.update(rc=rc, figure=figure)
    return _state


def render_states(drawer, states: list[dict]) -> list[np.ndarray]:
    """Rasterise ``states`` (all of one chart type) with ``drawer`` (a module with
    ``FRAME_KEYS``, ``draw_frame(figure, state) -> context`` and
    ``draw_data(context, state) -> [artists]``). Returns uint8 ``(768, 1024, 3)`` arrays.

    Every chart is drawn in three layers: the frame (axes, ticks, titles, colorbar) is
    rasterised first, then the data artists are drawn on top of it in z-order, then the axis
    lines (spines) again on top of the data. A state whose
    ``FRAME_KEYS`` equal the previous state's restores the rasterised frame instead of
    drawing it again (an answer usually keeps its input's frame), which gives the same bytes
    as drawing it afresh (tested) at a fraction of the cost: the ticks and text of the frame
    are most of matplotlib's drawing time.
    """
    import matplotlib as mpl

    setup = _setup()
    figure = setup["figure"]
    canvas = figure.canvas
    out, context, frame, background = [], None, None, None
    with _lock, mpl.rc_context(setup["rc"]):
        for state in states:
            if context is None or any(state.get(k) != frame.get(k) for k in drawer.FRAME_KEYS):
                figure.clear()
                figure.set_facecolor(state["theme"]["background"])
                context, frame = drawer.draw_frame(figure, state), state
                canvas.draw()
                background = canvas.copy_from_bbox(figure.bbox)
            else:
                canvas.restore_region(background)
            artists = drawer.draw_data(context, state)
            for artist in sorted(artists, key=lambda a: a.get_zorder()):  # stable: ties keep order
                figure.draw_artist(artist)
            for spine in axis_lines(figure):  # axis lines over the data, as matplotlib draws them
                figure.draw_artist(spine)
            pixels = rgba_to_rgb(np.asarray(canvas.buffer_rgba()))  # C speed, not strided
            for artist in artists:
                artist.remove()
            if pixels.shape != (HEIGHT, WIDTH, 3):
                raise RuntimeError(f"chart rendered at {pixels.shape[1]}x{pixels.shape[0]}, "
                                   f"expected {WIDTH}x{HEIGHT}")
            out.append(pixels)
    return out


def axis_lines(figure) -> list:
    """The visible spines of every axes of ``figure`` that shows its axis: redrawn over the
    data layer, so data never paints over an axis line (an emptied cell next to the frame
    shows the background, not a thicker axis)."""
    return [spine for ax in figure.axes if ax.axison
            for spine in ax.spines.values() if spine.get_visible()]


def style_axes(ax, state: dict) -> None:
    """Background, spines, ticks, title and axis labels in the theme's colours."""
    theme = state["theme"]
    ax.set_facecolor(theme["background"])
    for spine in ax.spines.values():
        spine.set_color(theme["text"])
    ax.tick_params(colors=theme["text"], which="both")
    if state.get("title"):
        ax.set_title(state["title"], color=theme["text"])
    if state.get("xlabel"):
        ax.set_xlabel(state["xlabel"], color=theme["text"])
    if state.get("ylabel"):
        ax.set_ylabel(state["ylabel"], color=theme["text"])


def limited_axes(figure, state: dict, rect: tuple):
    """Axes at ``rect`` (figure fractions), styled, with the state's ``xlim`` / ``ylim``: the
    frame of the charts drawn in data coordinates (line, scatter)."""
    ax = figure.add_axes(rect)
    style_axes(ax, state)
    ax.set_xlim(*state["xlim"])
    ax.set_ylim(*state["ylim"])
    return ax


def style_legend(legend, state: dict) -> None:
    frame = legend.get_frame()
    frame.set_facecolor(state["theme"]["background"])
    frame.set_edgecolor(state["theme"]["text"])
    for text in legend.get_texts():
        text.set_color(state["theme"]["text"])

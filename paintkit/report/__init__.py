"""``paintkit report``: one self-contained HTML page (no CDN, no server) of a results folder.

- :mod:`paintkit.report.data` gathers aggregate rows, diagnostics and the table payload;
- :mod:`paintkit.report.plots` draws the inline SVG plots (matplotlib);
- :mod:`paintkit.report.gallery` builds gallery cards (input, answer, output, diffs);
- :mod:`paintkit.report.page` assembles the page (:func:`~paintkit.report.page.build_report`).
"""

"""Hostile SVG outputs: each is one SvgError line, refused before parsing or drawing, and
nothing outside the document is read, fetched or expanded."""

from __future__ import annotations

import time

import pytest

from paintkit.svg import MAX_DEPTH, MAX_ELEMENTS, MAX_SVG_BYTES, SvgError, render_svg

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ' \
       'width="16" height="16">'


def refused(svg: str | bytes, *words: str) -> str:
    start = time.perf_counter()
    with pytest.raises(SvgError) as info:
        render_svg(svg)
    message = str(info.value)
    assert "\n" not in message and len(message) < 400
    for word in words:
        assert word in message, message
    assert time.perf_counter() - start < 20  # bounded (a hostile file must not run for minutes)
    return message


def test_billion_laughs_is_refused_unexpanded() -> None:
    lol = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10 if i else "lol"}">' for i in range(10))
    refused(f'<?xml version="1.0"?><!DOCTYPE svg [{lol}]>{HEAD}<text>&l9;</text></svg>', "DOCTYPE")


def test_external_entities_read_no_file(tmp_path) -> None:  # noqa: ANN001
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    svg = (f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file://{secret}">]>'
           f'{HEAD}<path d="M0 0h4v4z" fill="red"/>&x;</svg>')
    assert "TOP-SECRET" not in refused(svg, "DOCTYPE")
    refused(f'<!DOCTYPE svg SYSTEM "file://{secret}">{HEAD}</svg>', "DOCTYPE")


def test_deep_nesting_and_element_counts_are_bounded() -> None:
    refused(HEAD + "<g>" * (MAX_DEPTH + 5) + "</g>" * (MAX_DEPTH + 5) + "</svg>", "deeper")
    refused(HEAD + "<g/>" * (MAX_ELEMENTS + 1) + "</svg>", "elements")
    refused(HEAD + "<g>" * 200_000, "deeper")  # never closed: refused at the limit


def test_size_limits() -> None:
    refused(b" " * (MAX_SVG_BYTES + 1), "limit")
    refused(b"", "empty")
    refused('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"/>', "limit")
    refused('<svg xmlns="http://www.w3.org/2000/svg" width="10.5" height="4"/>', "whole")
    refused('<svg xmlns="http://www.w3.org/2000/svg"/>', "width")
    with pytest.raises(SvgError, match="canvas 32 x 32"):
        render_svg(HEAD + "</svg>", width=32, height=32)


@pytest.mark.parametrize("body, word", [
    ('<image xlink:href="file:///etc/passwd" width="4" height="4"/>', "<image>"),
    ('<use href="#a"/>', "<use>"),
    ('<text x="1" y="1">hi</text>', "<text>"),
    ('<style>rect { fill: red }</style>', "<style>"),
    ('<script>alert(1)</script>', "<script>"),
    ('<foreignObject/>', "<foreignObject>"),
    ('<svg width="4" height="4"/>', "nested"),
    ('<defs><linearGradient id="g"/></defs>', "<defs>"),
    ('<path d="M0 0h4v4z" fill="url(#g)"/>', "url"),
    ('<path d="M0 0h4v4z" style="fill: url(http://example.com/x)"/>', "url"),
    ('<path d="M0 0h4v4z" fill="red" opacity="0.5"/>', "opacity"),
    ('<path d="M0 0h4v4z" fill="red" style="fill-opacity:50%"/>', "opacity"),
    ('<path d="M0 0h4v4z" fill="red" clip-path="inset(1px)"/>', "clip-path"),
    ('<path d="M0 0h4v4z" fill="red" filter="blur(2)"/>', "filter"),
    ('<a href="https://example.com"><path d="M0 0h4v4z"/></a>', "<a>"),
])
def test_outside_the_subset_is_named(body: str, word: str) -> None:
    refused(HEAD + body + "</svg>", word)


def test_processing_instructions_and_malformed_xml() -> None:
    refused('<?xml-stylesheet href="http://example.com/a.css"?>' + HEAD + "</svg>",
            "processing instruction")
    refused(HEAD + "<path d='M0 0h4v4z'", "well-formed")
    refused("<html><body/></html>", "root")
    refused("not xml at all", "well-formed")


def test_hostile_geometry_is_bounded() -> None:
    many = "M0 0" + "C1 1e6 2 -1e6 3 0" * 2000
    refused(HEAD + f'<path fill="red" d="{many}"/></svg>', "points")
    huge = render_svg(HEAD + '<path fill="red" d="M-1e300 -1e300L1e300 -1e300L0 1e300Z"/></svg>')
    assert huge.shape == (16, 16, 3)


def test_metadata_and_titles_are_skipped() -> None:
    px = render_svg(HEAD + '<title>t</title><metadata><rdf:RDF xmlns:rdf="x"><x/></rdf:RDF>'
                    '</metadata><path d="M0 0h4v4h-4z" fill="#ff0000"/></svg>')
    assert (px[:4, :4] == (255, 0, 0)).all() and (px[4:] == 255).all()

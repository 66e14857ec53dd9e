"""What an SVG output may hold, checked on its bytes before anything parses it.

An SVG a model returns is hostile input like any uploaded image. Before the parser sees a
byte, :func:`check_svg` reads the document once with expat, holding nothing, and refuses:

- more than :data:`MAX_SVG_BYTES` bytes, more than :data:`MAX_ELEMENTS` elements, or elements
  nested deeper than :data:`MAX_DEPTH`;
- any ``<!DOCTYPE>`` (so no entity is ever declared or expanded: no billion laughs, no
  external entity, no file read), processing instructions (``<?xml-stylesheet?>``);
- any reference outside the document or to another element: an ``href`` in any namespace,
  ``url(...)`` in an attribute or a ``style`` (gradients, patterns, filters, masks, clips);
- elements outside the supported subset (:data:`DRAWN` and :data:`CONTAINERS`; the ignored
  :data:`IGNORED` may hold anything, it is skipped): text, images, ``<use>``, ``<style>``,
  scripts, nested ``<svg>``, ... are each named in the error;
- partial opacity (``opacity``, ``fill-opacity``, ``stroke-opacity`` other than 0 or 1): the
  benchmark's colours are opaque, and blending is not in the subset.

Every refusal is one :class:`SvgError` line naming what was found and where (line, column).
"""

from __future__ import annotations

import re
from xml.parsers import expat

__all__ = ["CONTAINERS", "DRAWN", "IGNORED", "MAX_DEPTH", "MAX_ELEMENTS", "MAX_SVG_BYTES",
           "SvgError", "check_svg"]

MAX_SVG_BYTES = 64 * 1024 * 1024
MAX_ELEMENTS = 200_000
MAX_DEPTH = 64

#: Elements that paint.
DRAWN = frozenset({"path", "rect", "circle", "ellipse", "line", "polyline", "polygon"})
#: Elements that group (``svg`` only as the root).
CONTAINERS = frozenset({"svg", "g"})
#: Elements skipped with everything inside them.
IGNORED = frozenset({"title", "desc", "metadata"})

_OPACITY = ("opacity", "fill-opacity", "stroke-opacity")
_REFUSED_PROPERTIES = ("clip-path", "mask", "filter", "marker-start", "marker-mid",
                       "marker-end", "marker")
_URL = re.compile(r"url\s*\(", re.IGNORECASE)


class SvgError(ValueError):
    """An SVG outside the supported subset or limits; the message is one line."""


def _local(name: str) -> str:
    """``{ns}tag`` / ``ns tag`` / ``prefix:tag`` -> ``tag``."""
    return name.rsplit(" ", 1)[-1].rsplit(":", 1)[-1].rsplit("}", 1)[-1]


def _style_items(style: str) -> list[tuple[str, str]]:
    items = []
    for part in style.split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            items.append((key.strip().lower(), value.strip()))
    return items


def _check_opacity(name: str, value: str, where: str) -> None:
    try:
        number = float(value.strip().rstrip("%")) / (100 if value.strip().endswith("%") else 1)
    except ValueError:
        raise SvgError(f"{where}: {name}={value[:40]!r} is not a number") from None
    if number not in (0.0, 1.0):
        raise SvgError(f"{where}: {name}={value[:40]!r}: partial opacity is outside the "
                       "supported SVG subset (colours are opaque; use 0 or 1)")


def _check_property(name: str, value: str, where: str) -> None:
    if _URL.search(value):
        raise SvgError(f"{where}: {name} refers to url(...): gradients, patterns and other "
                       "references are outside the supported SVG subset")
    if name in _OPACITY:
        _check_opacity(name, value, where)
    elif name in _REFUSED_PROPERTIES and value.strip().lower() != "none":
        raise SvgError(f"{where}: {name} is outside the supported SVG subset")


_LENGTH = re.compile(r"\s*[0-9.eE+-]+\s*(px)?\s*")


def _check_root_size(attrs: dict[str, str]) -> None:
    """The canvas must be stated: ``width`` and ``height`` in pixels, or a ``viewBox``."""
    named = {_local(k): v for k, v in attrs.items()}
    for key in ("width", "height"):
        if key in named and not _LENGTH.fullmatch(named[key]):
            raise SvgError(f"the <svg> {key}={named[key][:40]!r} is not a length in pixels")
    if not (("width" in named and "height" in named) or "viewBox" in named):
        raise SvgError("the <svg> needs a width and a height in pixels (or a viewBox)")


class _Scan:
    def __init__(self, parser: expat.XMLParserType) -> None:
        self.parser = parser
        self.depth = 0
        self.elements = 0
        self.ignored_depth = 0  # > 0 inside an IGNORED element
        self.root_seen = False
        self.in_defs = False  # directly inside a <defs> (which may only be empty)

    def where(self) -> str:
        return f"line {self.parser.CurrentLineNumber}, column {self.parser.CurrentColumnNumber + 1}"

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        self.elements += 1
        if self.elements > MAX_ELEMENTS:
            raise SvgError(f"more than {MAX_ELEMENTS:,} elements")
        if self.depth > MAX_DEPTH:
            raise SvgError(f"{self.where()}: elements nested deeper than {MAX_DEPTH}")
        tag = _local(name)
        if self.ignored_depth:
            self.ignored_depth += 1
            return
        if not self.root_seen:
            self.root_seen = True
            if tag != "svg":
                raise SvgError(f"the root element is <{tag}>, not <svg>")
            _check_root_size(attrs)
        elif tag == "svg":
            raise SvgError(f"{self.where()}: a nested <svg> is outside the supported SVG subset")
        if tag in IGNORED:
            self.ignored_depth = 1
            return
        if tag == "defs":
            self.ignored_depth = 1  # an empty <defs> is harmless; its children are refused
            self.in_defs = True
            return
        if tag not in DRAWN and tag not in CONTAINERS:
            raise SvgError(f"{self.where()}: <{tag}> is outside the supported SVG subset "
                           "(paths, basic shapes and groups)")
        for key, value in attrs.items():
            attr = _local(key).lower()
            if attr == "href":
                raise SvgError(f"{self.where()}: <{tag}> has an href: references are "
                               "outside the supported SVG subset")
            if attr == "style":
                for prop, v in _style_items(value):
                    _check_property(prop, v, f"{self.where()}: <{tag}> style")
            else:
                _check_property(attr, value, f"{self.where()}: <{tag}>")

    def end(self, name: str) -> None:
        self.depth -= 1
        if self.ignored_depth:
            if self.in_defs and self.ignored_depth == 1:
                self.in_defs = False
            self.ignored_depth -= 1

    def defs_child(self, name: str, attrs: dict[str, str]) -> None:
        if self.in_defs and self.ignored_depth == 1:
            raise SvgError(f"{self.where()}: <{_local(name)}> inside <defs>: definitions "
                           "are outside the supported SVG subset")
        self.start(name, attrs)


def _refuse(what: str):  # noqa: ANN202 - an expat handler
    def handler(*_args: object) -> None:
        raise SvgError(f"{what} is not accepted in an SVG output")
    return handler


def check_svg(data: bytes | str) -> bytes:
    """Check an SVG document against the limits and the subset; returns its bytes.

    Args:
        data: the document, bytes (any encoding its XML declaration names) or text.

    Raises:
        SvgError: one line naming the first thing outside the limits or the subset, or
            the XML error with its line and column.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if len(raw) > MAX_SVG_BYTES:
        raise SvgError(f"the SVG is {len(raw):,} bytes, above the {MAX_SVG_BYTES:,}-byte limit")
    if not raw.strip():
        raise SvgError("the SVG is empty")
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    scan = _Scan(parser)
    parser.StartElementHandler = scan.defs_child
    parser.EndElementHandler = scan.end
    parser.StartDoctypeDeclHandler = _refuse("a <!DOCTYPE> (entities, external subsets)")
    parser.EntityDeclHandler = _refuse("an entity declaration")
    parser.ExternalEntityRefHandler = _refuse("an external entity")
    parser.ProcessingInstructionHandler = _refuse("a processing instruction")
    try:
        parser.Parse(raw, True)
    except expat.ExpatError as err:
        raise SvgError(f"not well-formed XML: {expat.errors.messages[err.code]} "
                       f"(line {err.lineno}, column {err.offset + 1})") from None
    except RecursionError:
        raise SvgError(f"elements nested deeper than {MAX_DEPTH}") from None
    if not scan.root_seen:
        raise SvgError("the SVG has no <svg> element")
    return raw

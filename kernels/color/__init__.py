"""Colour: sRGB -> CIE L*a*b* (the canonical definition, its fast twins, the torch table of
all 2^24 colours) and the ΔE formulas (CIE76, CIE94, CIEDE2000) with their canonical maths
(docs/metric-definition.md §3-4)."""

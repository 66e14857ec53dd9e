"""How instructions name things, shared by every task so wording stays uniform.

- :mod:`.phrases`: shapes, colours, layers, numbers and coordinates as instruction words.
- :mod:`.points`: the points an instruction may name on a shape, and their phrases.
"""

"""paintkit's import graph read from the source with ``ast`` (nothing is imported).

Every module of ``paintkit/``, ``kernels/`` (``paintkit.kernels``), ``renderers/``
(``paintkit.renderers``) and the speed scripts of ``bench/`` (``bench.<name>``, under the same
rules) is parsed; each ``import`` statement of a paintkit module, wherever it sits in the
module (module level, inside a function at any depth, under ``if TYPE_CHECKING:``), becomes
an edge ``importer -> imported`` with where it sits, whether it only runs for type checkers
and the comments on its lines. Cycles are counted over every edge: an import that only a
type checker or a later call runs still ties the two modules together.

A *part* is what the package-level graph has as nodes: a subpackage of paintkit
(``paintkit.metrics``, ``paintkit.kernels``), a top-level module (``paintkit.scene``) or
the package itself (``paintkit``, its ``__init__``).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROOTS = {"paintkit": REPO / "paintkit", "paintkit.kernels": REPO / "kernels",
         "paintkit.renderers": REPO / "renderers", "bench": REPO / "bench"}

# Optional or slow-to-import dependencies a function-local import may guard; its comment
# names one of them (``# torch``, ``# matplotlib: only for --plot``).
HEAVY = ("numpy", "pil", "pillow", "torch", "numba", "skia", "matplotlib", "ray", "pyarrow",
         "webdataset", "datasets",
         "diffusers", "transformers", "accelerate", "openai", "genai", "playwright", "kornia",
         "scipy", "torchmetrics", "imagecodecs", "threadpoolctl")
HEAVY_RE = re.compile(r"\b(" + "|".join(map(re.escape, HEAVY)) + r")\b", re.IGNORECASE)


@dataclass(frozen=True)
class Edge:
    """One import of a paintkit module: ``source`` imports ``target`` (dotted module names);
    ``names`` are the names taken with ``from ... import``."""

    source: str
    target: str
    line: int
    local: bool  # inside a function (at any depth)
    typing_only: bool  # under ``if TYPE_CHECKING:``
    comment: str  # the comments on the statement's lines, joined
    names: tuple[str, ...] = ()


def module_files() -> dict[str, Path]:
    """``{dotted module name: file}`` of every module of the source roots and ``bench/``."""
    files = {}
    for prefix, root in ROOTS.items():
        for path in sorted(root.rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join([prefix, *parts])] = path
    return files


def is_package(module: str, files: dict[str, Path]) -> bool:
    return files[module].name == "__init__.py"


def part_of(module: str) -> str:
    """The package-level node of ``module``: ``paintkit.metrics.score`` -> ``paintkit.metrics``."""
    pieces = module.split(".")
    return ".".join(pieces[:2])


def _comments(source: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string
    return out


def _resolve(module: str, package: bool, level: int, name: str | None) -> str:
    """The absolute module of ``from <level dots><name> import ...`` inside ``module``."""
    if not level:
        return name or ""
    base = module.split(".")
    if not package:
        base = base[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


class _Visitor(ast.NodeVisitor):
    def __init__(self, module: str, files: dict[str, Path], comments: dict[int, str]):
        self.module, self.files, self.comments = module, files, comments
        self.comment_lines: set[int] = set()  # lines holding nothing but a comment
        self.import_lines: set[int] = set()  # lines of import statements
        self.package = is_package(module, files)
        self.depth = 0  # function nesting
        self.typing = 0  # TYPE_CHECKING nesting
        self.edges: list[Edge] = []
        self.bound: dict[str, str] = {}  # local name -> paintkit module it names
        self.attributes: list[tuple[str, str, int]] = []  # (module, private attribute, line)

    def _edge(self, node, target: str, names=()):
        comment = " ".join(self.comments.get(n, "") for n in range(node.lineno, node.end_lineno + 1))
        if self.depth > 0:
            comment += " " + self._block_comment(node.lineno)
        self.edges.append(Edge(self.module, target, node.lineno, self.depth > 0, self.typing > 0,
                               comment.strip(), tuple(names)))

    def _block_comment(self, line: int) -> str:
        """The comment line heading the run of import statements that ``line`` belongs to
        (``# numba: ...`` above a group of function-local imports), or ""."""
        line -= 1
        while line > 0 and line in self.import_lines:
            line -= 1
        heading = []
        while line > 0 and line in self.comment_lines:
            heading.append(self.comments[line])
            line -= 1
        return " ".join(reversed(heading))

    def visit_FunctionDef(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_If(self, node):
        test = node.test
        typing = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
        if typing:
            self.typing += 1
            for child in node.body:
                self.visit(child)
            self.typing -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def visit_Import(self, node):
        for alias in node.names:
            if alias.name == "paintkit" or alias.name.startswith("paintkit."):
                self._edge(node, alias.name)
                if alias.asname:
                    self.bound[alias.asname] = alias.name

    def visit_ImportFrom(self, node):
        base = _resolve(self.module, self.package, node.level, node.module)
        if not (base == "paintkit" or base.startswith("paintkit.")):
            return
        plain = []
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            if sub in self.files:  # ``from paintkit.compositional import chain``: a module
                self._edge(node, sub)
                self.bound[alias.asname or alias.name] = sub
            else:
                plain.append(alias.name)
        if plain or not node.names:
            self._edge(node, base, plain)

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id in self.bound \
                and node.attr.startswith("_") and not node.attr.startswith("__"):
            self.attributes.append((self.bound[node.value.id], node.attr, node.lineno))
        self.generic_visit(node)


@dataclass
class Graph:
    files: dict[str, Path]
    edges: list[Edge]
    private_attributes: list[tuple[str, str, str, int]]  # (source, target module, name, line)


def read_graph() -> Graph:
    files = module_files()
    edges, attributes = [], []
    for module, path in files.items():
        source = path.read_text(encoding="utf-8")
        visitor = _Visitor(module, files, _comments(source))
        tree = ast.parse(source, str(path))
        lines = source.splitlines()
        visitor.comment_lines = {n for n in visitor.comments if lines[n - 1].lstrip().startswith("#")}
        visitor.import_lines = {n for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                                for n in range(node.lineno, node.end_lineno + 1)}
        visitor.visit(tree)
        for edge in visitor.edges:
            target = edge.target
            while target not in files and "." in target:  # ``import paintkit.x.name`` forms
                target = target.rsplit(".", 1)[0]
            edges.append(Edge(edge.source, target, edge.line, edge.local, edge.typing_only,
                              edge.comment, edge.names))
        attributes += [(module, target, name, line) for target, name, line in visitor.attributes]
    return Graph(files, edges, attributes)


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def runtime_edges(graph: Graph) -> list[Edge]:
    """The imports that run (module level or inside a function), not ``TYPE_CHECKING`` ones:
    what a flow can follow at run time (tests/code/flow_walk.py)."""
    return [e for e in graph.edges if not e.typing_only and e.source != e.target]


def import_edges(graph: Graph) -> list[Edge]:
    """Every import statement between two modules: module level, inside functions and
    under ``TYPE_CHECKING`` (what the cycle checks count)."""
    return [e for e in graph.edges if e.source != e.target]


def file_graph(graph: Graph) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {m: set() for m in graph.files}
    for e in import_edges(graph):
        out[e.source].add(e.target)
    return out


def package_graph(graph: Graph) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for e in import_edges(graph):
        a, b = part_of(e.source), part_of(e.target)
        out.setdefault(a, set())
        if a != b:
            out[a].add(b)
    return out


def facade_imports(graph: Graph) -> set[tuple[str, int]]:
    """(importer, line) of each module of the package that imports the package facade
    (``paintkit/__init__.py``: ``from paintkit import __version__``, ``import paintkit``);
    the facade imports its modules, so each such import is a cycle through it. ``bench/``
    scripts are users of the package and may."""
    return {(e.source, e.line) for e in graph.edges
            if e.target == "paintkit" and e.source != "paintkit" and e.source.startswith("paintkit.")}


def unexplained_local_imports(graph: Graph) -> set[tuple[str, str]]:
    """(importer, imported) of each import of a paintkit module inside a function whose
    comment names no heavy dependency it guards (in the package: a ``bench/`` script's
    imports cost no user's import time)."""
    return {(e.source, e.target) for e in graph.edges
            if e.local and not e.typing_only and not HEAVY_RE.search(e.comment)
            and e.source.startswith("paintkit")}


def private_imports(graph: Graph) -> set[tuple[str, str]]:
    """(importer, ``module.name``) of each private name (``_x``, a private module included)
    taken from another part: ``from paintkit.a import _x``, ``import paintkit.a._b``, or
    ``module._x`` on a module imported from another part."""
    out = set()

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__")

    for e in graph.edges:
        if part_of(e.source) == part_of(e.target):
            continue
        for name in e.names:
            if private(name):
                out.add((e.source, f"{e.target}.{name}"))
        inner = e.target.split(".")[1:]  # ``paintkit._version``, ``paintkit.kernels._validate``
        if any(private(p) for p in inner):
            out.add((e.source, e.target))
    for source, target, name, _ in graph.private_attributes:
        if part_of(source) != part_of(target):
            out.add((source, f"{target}.{name}"))
    return out

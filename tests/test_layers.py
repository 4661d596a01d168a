"""One-way layers: no import circle inside the package, no module over 1,000 lines.

The import graph is read from the source with :mod:`ast` (nothing is imported): every
``import``/``from ... import`` of a ``jaxlint`` module, at module level or inside a
function. ``from pkg import name`` points at the submodule ``pkg.name`` when there is one,
else at ``pkg`` itself (a name defined in its ``__init__.py``). Imports under ``if
TYPE_CHECKING:`` never run: they are left out of the cycle check, but like every other
import they must point down (or sideways, within a layer) in :data:`LAYERS`, the drawing
of docs/design.md ("Layers").
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "jaxlint"

MAX_LINES = 1000
"""The most lines one module may have (docs/design.md: a room a reader can hold)."""

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "base",
        (
            "jaxlint",  # the package: __version__ only
            "jaxlint.diagnostics",
            "jaxlint.positions",
            "jaxlint.signals",
            "jaxlint.versions",
            "jaxlint.source",
            "jaxlint.deep_stack",
            "jaxlint.timings",
            "jaxlint.prefilter",
            "jaxlint.noqa",
            "jaxlint.gc_pause",
        ),
    ),
    ("model", ("jaxlint.analysis",)),
    (
        "engine",
        (
            "jaxlint.engine",
            "jaxlint.settings",
            "jaxlint.rules.base",
            "jaxlint.fixers",
            "jaxlint.verify",
            "jaxlint.notebook",
        ),
    ),
    ("rules", ("jaxlint.rules",)),
    (
        "services",
        (
            "jaxlint.config",
            "jaxlint.cache",
            "jaxlint.discovery",
            "jaxlint.output",
            "jaxlint.parallel",
        ),
    ),
    (
        "apps",
        (
            "jaxlint.cli",
            "jaxlint.server",
            "jaxlint.runtime_probes",
            "jaxlint.flake8_plugin",
            "jaxlint.docs_gen",
            "jaxlint.__main__",
        ),
    ),
)
"""Bottom to top; a module belongs to the layer of its longest listed prefix."""


def module_files(package: Path) -> dict[str, tuple[Path, bool]]:
    """``dotted name -> (file, is a package)`` for every module of ``package``."""
    out: dict[str, tuple[Path, bool]] = {}
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).with_suffix("")
        if any(part.endswith(".examples") or part == "__pycache__" for part in rel.parts):
            continue  # rule examples are data, not modules of the package
        parts = list(rel.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        out[".".join(parts)] = (path, is_package)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(
    node: ast.Import | ast.ImportFrom, module: str, is_package: bool, modules: Iterable[str]
) -> set[str]:
    known = set(modules)
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".")
            if not is_package:
                base.pop()
            base = base[: len(base) - (node.level - 1)]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        for alias in node.names:
            sub = f"{source}.{alias.name}"
            names.append(sub if sub in known else source)
    out: set[str] = set()
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name:
            out.add(name)
    return out


def import_graph(package: Path) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(imports that run, imports under ``TYPE_CHECKING`` only), module -> modules."""
    modules = module_files(package)
    runs: dict[str, set[str]] = {}
    typing_only: dict[str, set[str]] = {}
    for module, (path, is_package) in modules.items():
        run: set[str] = set()
        typed: set[str] = set()

        def visit(node: ast.AST, in_type_checking: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _is_type_checking(child.test):
                    for stmt in child.body:
                        visit_one(stmt, True)
                    for stmt in child.orelse:
                        visit_one(stmt, in_type_checking)
                else:
                    visit_one(child, in_type_checking)

        def visit_one(node: ast.AST, in_type_checking: bool) -> None:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found = _targets(node, module, is_package, modules) - {module}  # noqa: B023
                (typed if in_type_checking else run).update(found)  # noqa: B023
            visit(node, in_type_checking)

        visit(ast.parse(path.read_text(encoding="utf-8")), False)
        runs[module] = run
        typing_only[module] = typed - run
    return runs, typing_only


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def connect(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                connect(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def layer_of(module: str) -> int | None:
    best: tuple[int, int] | None = None  # (prefix length, layer)
    for level, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[0]:
                    best = (len(prefix), level)
    return None if best is None else best[1]


def upward(runs: dict[str, set[str]], typing_only: dict[str, set[str]]) -> list[str]:
    out = []
    for kind, graph in (("imports", runs), ("imports for types", typing_only)):
        for module, targets in sorted(graph.items()):
            mine = layer_of(module)
            for target in sorted(targets):
                theirs = layer_of(target)
                if mine is not None and theirs is not None and theirs > mine:
                    out.append(
                        f"{module} ({LAYERS[mine][0]}) {kind} {target} ({LAYERS[theirs][0]})"
                    )
    return out


# -- the package -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    return import_graph(PACKAGE)


def test_no_import_cycle_in_the_package(graph) -> None:
    runs, _ = graph
    assert len(runs) > 100  # the whole package was read
    assert cycles(runs) == []


def test_every_module_has_a_layer() -> None:
    assert [m for m in module_files(PACKAGE) if layer_of(m) is None] == []


def test_imports_point_down(graph) -> None:
    assert upward(*graph) == []


def test_the_model_knows_nothing_above_it(graph) -> None:
    """``analysis/`` imports only itself and the base layer, types included: the engine,
    the cache and the configuration reach it as data (docs/design.md)."""
    runs, typing_only = graph
    model = LAYERS.index(("model", ("jaxlint.analysis",)))
    for module in runs:
        if layer_of(module) == model:
            above = {t for t in runs[module] | typing_only[module] if layer_of(t) != model}
            assert all(layer_of(t) == 0 for t in above), (module, above)


def test_no_module_over_the_line_limit() -> None:
    sizes = {
        module: path.read_text(encoding="utf-8").count("\n")
        for module, (path, _) in module_files(PACKAGE).items()
    }
    assert {m: n for m, n in sizes.items() if n > MAX_LINES} == {}


# -- the checks themselves, on a small made-up package ----------------------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "jaxlint"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "analysis/__init__.py": "",
            "analysis/a.py": "def f():\n    from jaxlint.engine import g\n",
            "engine.py": "from jaxlint.analysis import a\n",
        },
    )
    runs, _ = import_graph(root)
    assert cycles(runs) == [["jaxlint.analysis.a", "jaxlint.engine"]]


def test_type_checking_imports_are_no_cycle_but_must_point_down(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "analysis/__init__.py": "",
            "analysis/a.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from jaxlint.engine import FileContext\n"
            ),
            "engine.py": "from .analysis import a\n",
        },
    )
    runs, typing_only = import_graph(root)
    assert cycles(runs) == []
    assert typing_only["jaxlint.analysis.a"] == {"jaxlint.engine"}
    assert upward(runs, typing_only) == [
        "jaxlint.analysis.a (model) imports for types jaxlint.engine (engine)"
    ]


def test_from_a_package_import_a_submodule_points_at_the_submodule(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "cli/__init__.py": "from jaxlint.cli import check\nVERSION = 1\n",
            "cli/check.py": "from jaxlint.cli import common\n",
            "cli/common.py": "",
            "cli/rule.py": "from jaxlint.cli import VERSION\n",
        },
    )
    runs, _ = import_graph(root)
    assert runs["jaxlint.cli.check"] == {"jaxlint.cli.common"}
    assert runs["jaxlint.cli.rule"] == {"jaxlint.cli"}  # a name of cli/__init__.py
    assert cycles(runs) == []

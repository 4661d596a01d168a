"""Is this test code? Rules ask it to apply the test-code policy
(docs/precision/test-code.md): a rule decides, for itself, what changes in tests.

Test code is a file that pytest or unittest would collect or load (``test_*.py``,
``*_test.py``, ``conftest.py``, or any file under a ``tests``/``test`` folder) and,
in any file, a function named ``test*`` or decorated as a pytest fixture.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel

TEST_FOLDERS = frozenset({"tests", "test", "testing"})


def is_test_path(filename: str) -> bool:
    """``tests/x.py``, ``pkg/test/x.py``, ``test_x.py``, ``x_test.py``, ``conftest.py``."""
    parts = [p for p in filename.replace("\\", "/").split("/") if p]
    if not parts:
        return False
    name = parts[-1]
    if name.endswith((".py", ".pyi", ".ipynb")):
        stem = name.rsplit(".", 1)[0]
        if stem.startswith("test_") or stem.endswith("_test") or stem == "conftest":
            return True
    return any(part in TEST_FOLDERS for part in parts[:-1])


def _decorator_name(decorator: cst.Decorator) -> str:
    expr = decorator.decorator
    if isinstance(expr, cst.Call):
        expr = expr.func
    parts: list[str] = []
    while isinstance(expr, cst.Attribute):
        parts.append(expr.attr.value)
        expr = expr.value
    if isinstance(expr, cst.Name):
        parts.append(expr.value)
    return ".".join(reversed(parts))


def is_test_function(fn: cst.FunctionDef) -> bool:
    """A test (``def test_x``, ``def testX``) or a pytest fixture (``@pytest.fixture``)."""
    if fn.name.value.startswith("test"):
        return True
    return any(_decorator_name(d) in ("pytest.fixture", "fixture") for d in fn.decorators)


def is_benchmark_function(fn: cst.FunctionDef) -> bool:
    """A benchmark registered with google-benchmark (``@google_benchmark.register``,
    ``@google_benchmark.option.arg_names(...)``, as spelled, ``benchmark.register``
    for ``import google_benchmark as benchmark``): its loop (``while state:``) repeats
    what it measures on purpose."""
    return any(
        _decorator_name(d).startswith(
            ("google_benchmark.", "benchmark.register", "benchmark.option")
        )
        for d in fn.decorators
    )


PROGRAM_FOLDERS = frozenset(
    {
        "examples", "example", "scripts", "script", "demos", "demo", "tutorials",
        "tutorial", "benchmarks", "benchmark", "experiments", "notebooks", "bin", "apps",
    }
)  # fmt: skip
"""Folders of programs: a module there is run, not imported, also in a package."""


def program_module(module: str | None) -> bool:
    """A module that is run, not imported: a script outside any package, or a module of a
    folder of programs (``examples/``). ``module``: as for :func:`self_test_block`."""
    if module is None or module.endswith(".__init__"):
        return False
    if not module.rsplit(".", 1)[-1].isidentifier():
        return False  # ``-`` (standard input) or a name no import can spell: unknown
    if "." not in module:
        return True
    return bool(PROGRAM_FOLDERS.intersection(p.lower() for p in module.split(".")[:-1]))


def self_test_block(module: str | None, model: SemanticModel, node: cst.CSTNode) -> bool:
    """``node`` lies in the ``if __name__ == "__main__":`` block of a module of a package
    (its folder holds an ``__init__.py``): a library module's self-test, run by hand by
    its developer (generax's ``generax/nn/layers.py``: build a layer from one key, call
    it, ``pdb.set_trace()``; 20 of fresh-2026-12s's JAX301 rows), which the rules judge
    as test code. A script's own block (no package, or a folder of programs such as
    ``examples/``) is the program, and is not. ``module``: the file's dotted name as the
    project sees it (``ProjectFacts.module``; ``None`` outside a project)."""
    if module is None or "." not in module or module.endswith((".__main__", ".__init__")):
        return False
    if PROGRAM_FOLDERS.intersection(p.lower() for p in module.split(".")[:-1]):
        return False  # a package of programs (``examples/``): the module is run
    parents = model.parents
    current = parents.get(id(node))
    while current is not None:
        if type(current) is cst.If and type(parents.get(id(current))) is cst.Module:
            return is_main_guard(current)
        current = parents.get(id(current))
    return False


def is_main_guard(stmt: cst.CSTNode) -> bool:
    """``if __name__ == "__main__":`` (either side)."""
    if type(stmt) is not cst.If or type(stmt.test) is not cst.Comparison:  # type: ignore[attr-defined]
        return False
    test = stmt.test  # type: ignore[attr-defined]
    if len(test.comparisons) != 1 or type(test.comparisons[0].operator) is not cst.Equal:
        return False
    sides = (test.left, test.comparisons[0].comparator)
    names = [s.value for s in sides if type(s) is cst.Name]
    strings = [s.evaluated_value for s in sides if type(s) is cst.SimpleString]
    return names == ["__name__"] and strings == ["__main__"]


def is_main_guard_ast(stmt: ast.AST) -> bool:
    """:func:`is_main_guard` for Python's own ``ast`` (the modules read as text)."""
    if not isinstance(stmt, ast.If) or not isinstance(stmt.test, ast.Compare):
        return False
    test = stmt.test
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Eq):
        return False
    sides = (test.left, test.comparators[0])
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    strings = [s.value for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
    return names == ["__name__"] and strings == ["__main__"]

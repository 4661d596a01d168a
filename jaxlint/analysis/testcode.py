"""Is this test code? Rules ask it to apply the test-code policy
(docs/precision/test-code.md): a rule decides, for itself, what changes in tests.

Test code is a file that pytest or unittest would collect or load (``test_*.py``,
``*_test.py``, ``conftest.py``, or any file under a ``tests``/``test`` folder) and,
in any file, a function named ``test*`` or decorated as a pytest fixture.
"""

from __future__ import annotations

import os
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


def self_test_block(filename: str, model: SemanticModel, node: cst.CSTNode) -> bool:
    """``node`` lies in the ``if __name__ == "__main__":`` block of a module of a package
    (its folder holds an ``__init__.py``): a library module's self-test, run by hand by
    its developer (generax's ``generax/nn/layers.py``: build a layer from one key, call
    it, ``pdb.set_trace()``; 20 of fresh-2026-12s's JAX301 rows), which the rules judge
    as test code. A script's own block (no package, or a folder of programs such as
    ``examples/``) is the program, and is not."""
    path = os.path.abspath(filename)
    if os.path.basename(path) == "__main__.py":
        return False
    folder, packages = os.path.dirname(path), []
    while os.path.isfile(os.path.join(folder, "__init__.py")) and len(packages) < 16:
        packages.append(os.path.basename(folder).lower())
        folder = os.path.dirname(folder)
    if not packages or PROGRAM_FOLDERS.intersection(packages):
        return False  # no package, or a package of programs (``examples/``): it is run
    parents = model.parents
    current = parents.get(id(node))
    while current is not None:
        if type(current) is cst.If and type(parents.get(id(current))) is cst.Module:
            test = current.test
            return (
                type(test) is cst.Comparison
                and type(test.left) is cst.Name
                and test.left.value == "__name__"
            )
        current = parents.get(id(current))
    return False

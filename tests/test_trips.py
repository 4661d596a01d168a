"""How many times a loop can run, when the code bounds it (analysis/trips.py)."""

from __future__ import annotations

import libcst as cst
import pytest

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.trips import (
    rare_test,
    runs_steps,
    short_loop,
    skips_unless_every_n,
    trip_count,
)


def _last_loop(code: str) -> tuple[SemanticModel, cst.For]:
    module = cst.parse_module(code)
    model = SemanticModel(module)
    loops: list[cst.For] = []

    class V(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            loops.append(node)

    module.visit(V())
    return model, loops[-1]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("for i in range(50): pass\n", 50),
        ("for i in range(1, 11): pass\n", 10),
        ("for i in range(0, 100, 7): pass\n", 15),
        ("for i in range(100 if not SMOKE else 10): pass\n", 100),
        ("STEPS = 30\nfor i in range(1, STEPS + 1): pass\n", 30),
        ("def f():\n    n = 1000\n    for t in range(n): pass\n", 1000),
        ("import numpy as np\nfor a in np.arange(0, 181, 5): pass\n", 37),
        (
            "import jax.numpy as jnp\nstep = 5\nangles = jnp.arange(0, 181, step)\n"
            "for a in angles: pass\n",
            37,
        ),
        ("import numpy as np\nfor a in np.linspace(0.0, 1.0, 11): pass\n", 11),
        ("import numpy as np\nfor a in np.linspace(0.0, 1.0): pass\n", 50),
        ("for i, x in enumerate([1, 2, 3]): pass\n", 3),
        ("for a, b in zip(range(4), data): pass\n", 4),
        ("import itertools\nfor a, b in itertools.product((1, 2), (3, 4, 5)): pass\n", 6),
        ("for k in {'a': 1, 'b': 2}: pass\n", 2),
    ],
)
def test_bounded_loops(code: str, expected: int) -> None:
    model, loop = _last_loop(code)
    assert trip_count(model, loop.iter) == expected


@pytest.mark.parametrize(
    "code",
    [
        "for i in range(n): pass\n",
        "def f(num_steps):\n    for i in range(num_steps): pass\n",
        "n = 10\nn = 20\nfor i in range(n): pass\n",  # bound twice: not known
        "for batch in loader: pass\n",
        "for x in [*xs, 1]: pass\n",
        "for i in range(*bounds): pass\n",
        "for i in range(len(xs)): pass\n",
        "for a, b in zip(xs, ys): pass\n",
    ],
)
def test_unbounded_loops(code: str) -> None:
    model, loop = _last_loop(code)
    assert trip_count(model, loop.iter) is None


def test_short_loop_is_at_most_one_hundred_iterations() -> None:
    assert short_loop(*_last_loop("for i in range(100): pass\n"))
    assert not short_loop(*_last_loop("for i in range(101): pass\n"))
    assert not short_loop(*_last_loop("for i in range(n): pass\n"))


def _first(code: str, kind: type) -> tuple[SemanticModel, cst.CSTNode]:
    module = cst.parse_module(code)
    model = SemanticModel(module)
    found: list[cst.CSTNode] = []

    class V(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, kind):
                found.append(node)
            return True

    module.visit(V())
    return model, found[0]


@pytest.mark.parametrize(
    ("test", "rare"),
    [
        ("step % 100 == 0", True),
        ("(step + 1) % n == 0", True),
        ("not step % 10", True),
        ("step > 0 and step % 10 == 0", True),
        ("step % 10", False),
        ("step % 10 != 0", False),
        ("'%d' % step == '1'", False),
        ("done", False),
    ],
)
def test_rare_tests(test: str, rare: bool) -> None:
    assert rare_test(cst.parse_expression(test)) is rare


def test_a_continue_unless_every_n_steps() -> None:
    stmt = cst.parse_statement("if step % 10:\n    continue\n")
    assert skips_unless_every_n(stmt)
    assert not skips_unless_every_n(cst.parse_statement("if step % 10 == 0:\n    continue\n"))
    assert not skips_unless_every_n(cst.parse_statement("if step % 10:\n    log()\n"))


def _resolver(model: SemanticModel):  # type: ignore[no-untyped-def]
    def resolve(expr: cst.BaseExpression):  # type: ignore[no-untyped-def]
        if not isinstance(expr, cst.Name):
            return None
        found = model.lookup(expr.value, model.module_scope)
        if found is None or found[1][0].kind != "def":
            return None
        return found[1][0].node, 0, frozenset()

    return resolve


@pytest.mark.parametrize(
    ("code", "loops"),
    [
        ("import jax\ndef f(x):\n    return jax.lax.scan(g, x, xs)\n", True),
        ("def f(x):\n    for _ in range(3):\n        x = x + 1\n    return x\n", True),
        (
            "import jax\ndef h(x):\n    return jax.lax.fori_loop(0, 9, g, x)\n"
            "def f(x):\n    return h(x)\n",
            True,
        ),
        ("def f(x):\n    for v in values:\n        x = x + v\n    return x\n", False),
        ("import jax.numpy as jnp\ndef f(x):\n    return jnp.sum(x)\n", False),
    ],
)
def test_runs_steps(code: str, loops: bool) -> None:
    module = cst.parse_module(code)
    model = SemanticModel(module)
    fn = [s for s in module.body if isinstance(s, cst.FunctionDef)][-1]
    assert runs_steps(model, fn, _resolver(model)) is loops


def test_runs_steps_asks_other_modules() -> None:
    module = cst.parse_module("from pkg.util import collect\ndef f(x):\n    return collect(x)\n")
    model = SemanticModel(module)
    fn = [s for s in module.body if isinstance(s, cst.FunctionDef)][-1]
    asked: list[str] = []

    def imported(func: cst.BaseExpression) -> dict | None:
        asked.append(module.code_for_node(func))
        return {"loops": True}

    assert runs_steps(model, fn, _resolver(model), imported=imported)
    assert asked == ["collect"]
    assert not runs_steps(model, fn, _resolver(model))

"""How many times a loop can run, when the code bounds it (analysis/trips.py)."""

from __future__ import annotations

import libcst as cst
import pytest

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.trips import short_loop, trip_count


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

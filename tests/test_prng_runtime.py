"""Runtime truth for JAX303-JAX305: what the rules claim, shown by running JAX.

JAX303-JAX305 do not predict an exception: they predict that "random" values repeat.
Each case below is a program that jaxlint flags (or, for the controls, leaves alone)
and that, run on CPU JAX, prints whether the values of two calls or two iterations
are the same. JAX301's claim (``KeyReuseError`` under ``jax_debug_key_reuse``) is
checked on its examples by tests/test_example_runtime.py and tests/test_keys.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from jaxlint.config import Settings
from jaxlint.engine import lint_text
from jaxlint.rules import find_rule

pytest.importorskip("jax")

# name -> (rule code, fires, program). The program ends by assigning ``same``: whether
# two calls (or iterations) gave identical values.
CASES: dict[str, tuple[str, bool, str]] = {
    "numpy_random_in_jit": (
        "JAX303",
        True,
        """
        import jax
        import jax.numpy as jnp
        import numpy as np

        @jax.jit
        def add_noise(x):
            return x + np.random.normal(size=x.shape)

        a, b = add_noise(jnp.zeros(3)), add_noise(jnp.zeros(3))
        same = bool((a == b).all())
        """,
    ),
    "stdlib_random_in_scan_body": (
        "JAX303",
        True,
        """
        import random
        import jax
        import jax.numpy as jnp

        def body(c, _):
            return c, c + random.random()

        _, ys = jax.lax.scan(body, 0.0, None, length=4)
        same = bool((ys == ys[0]).all())
        """,
    ),
    "time_in_jit": (
        "JAX303",
        True,
        """
        import time
        import jax

        @jax.jit
        def stamp(x):
            return x + time.time()

        a = float(stamp(0.0))
        time.sleep(0.05)
        b = float(stamp(0.0))
        same = a == b
        """,
    ),
    "outside_generator_in_jit": (
        "JAX303",
        True,
        """
        import jax
        import jax.numpy as jnp
        import numpy as np

        RNG = np.random.default_rng(0)

        @jax.jit
        def jitter(x):
            return x + RNG.normal(size=x.shape)

        a, b = jitter(jnp.zeros(2)), jitter(jnp.zeros(2))
        same = bool((a == b).all())
        """,
    ),
    "numpy_random_under_grad_only": (
        "JAX303",
        False,
        """
        import jax
        import numpy as np

        def loss(w):
            return w * np.random.normal()

        a, b = jax.grad(loss)(1.0), jax.grad(loss)(1.0)
        same = bool(a == b)
        """,
    ),
    "constant_key_in_loop": (
        "JAX304",
        True,
        """
        import jax

        draws = []
        for _ in range(3):
            draws.append(jax.random.normal(jax.random.key(0), (2,)))
        same = all(bool((d == draws[0]).all()) for d in draws)
        """,
    ),
    "constant_key_in_jit": (
        "JAX304",
        True,
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def add_noise(x):
            key = jax.random.key(0)
            return x + jax.random.normal(key, x.shape)

        a, b = add_noise(jnp.zeros(3)), add_noise(jnp.ones(3) - 1)
        same = bool((a == b).all())
        """,
    ),
    "constant_key_in_scan_body": (
        "JAX304",
        True,
        """
        import jax

        def body(c, _):
            return c, jax.random.normal(jax.random.key(7))

        _, ys = jax.lax.scan(body, 0.0, None, length=4)
        same = bool((ys == ys[0]).all())
        """,
    ),
    "loop_variable_seed": (
        "JAX304",
        False,
        """
        import jax

        draws = [jax.random.normal(jax.random.key(i), (2,)) for i in range(3)]
        same = bool((draws[0] == draws[1]).all())
        """,
    ),
    "global_key_in_function": (
        "JAX305",
        True,
        """
        import jax

        KEY = jax.random.key(0)

        def init_weights(shape):
            return jax.random.normal(KEY, shape)

        same = bool((init_weights((3,)) == init_weights((3,))).all())
        """,
    ),
    "global_key_advanced": (
        "JAX305",
        False,
        """
        import jax

        KEY = jax.random.key(0)

        def next_key():
            global KEY
            KEY, sub = jax.random.split(KEY)
            return sub

        a = jax.random.normal(next_key(), (3,))
        b = jax.random.normal(next_key(), (3,))
        same = bool((a == b).all())
        """,
    ),
}

RUNNER = textwrap.dedent(
    """
    import json, sys
    out = {}
    for name, src in json.loads(sys.stdin.read()).items():
        scope = {"__name__": "__main__"}
        exec(compile(src, name, "exec"), scope)
        out[name] = scope["same"]
    print("RESULTS " + json.dumps(out))
    """
)


@pytest.fixture(scope="module")
def outcomes() -> dict[str, bool]:
    programs = {name: textwrap.dedent(code) for name, (_, _, code) in CASES.items()}
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps(programs),
        capture_output=True,
        text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
        timeout=600,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert lines, proc.stderr[-3000:]
    return json.loads(lines[-1][len("RESULTS ") :])


@pytest.mark.parametrize("name", list(CASES))
def test_rule_fires_where_values_repeat(name: str, outcomes: dict[str, bool]) -> None:
    code, fires, program = CASES[name]
    rule = find_rule(code)
    assert rule is not None
    diags = lint_text(textwrap.dedent(program), "case.py", Settings(), [rule]).diagnostics
    assert bool([d for d in diags if d.code == code]) is fires, diags
    # flagged: the values repeat; the controls: they differ
    assert outcomes[name] is fires

"""Runtime truth for JAX303-JAX305 (and JAX301 on keys read through attributes): what the
rules claim, shown by running JAX.

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
from project_support import NOISE_STORED_KEY, NOISE_WITH_MIXIN

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
    "constant_key_in_loop_appended": (
        "JAX304",
        True,
        """
        import jax

        def fake_batches(n):
            batches = []
            for _ in range(n):
                batches.append(jax.random.normal(jax.random.key(0), (2,)))
            return batches

        draws = fake_batches(3)
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
    # JAX301 on a key read through a property of a base class (gwkokab's PRNGKeyMixin):
    # every read splits the class's key and returns a new one, so no draw repeats
    "key_property_of_a_base_class": (
        "JAX301",
        False,
        NOISE_WITH_MIXIN + "\n\na, b = Noise(3).pair()\nsame = bool((a == b).all())\n",
    ),
    "key_attribute_read_twice": (
        "JAX301",
        True,
        NOISE_STORED_KEY + "\n\na, b = Noise(3).pair()\nsame = bool((a == b).all())\n",
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


# -- JAX302: the PRNGKey -> key fix is withheld exactly where it would break the program ----

_JAX302_WITHHELD = (
    "invalid_key_split_converted_numpy.py",
    "invalid_reshape_trailing_pair.py",
    "invalid_reshape_minus_one_pair.py",
    "invalid_index_last_axis.py",
    "invalid_index_column.py",
    "invalid_savez_state_dict.py",
    "invalid_pickle.py",
    "invalid_tobytes.py",
    "invalid_dtype_check_in_function.py",
    "invalid_keys_shape_check.py",
    "invalid_passed_to_saver.py",
    "invalid_stored_on_self.py",
    "invalid_returned_then_indexed.py",
)
"""Examples reported with no fix: they run as written, and fail once ``PRNGKey`` is
replaced by ``key`` (what the fix would do)."""
_JAX302_FIXED = ("invalid_fix_applies_key_data.py",)
"""Examples the fix applies to: they run before and after it."""

_OUTCOME_RUNNER = textwrap.dedent(
    """
    import json, sys
    out = {}
    for name, src in json.loads(sys.stdin.read()).items():
        try:
            exec(compile(src, name, "exec"), {"__name__": "__main__"})
        except Exception as exc:
            out[name] = type(exc).__name__
        else:
            out[name] = None
    print("RESULTS " + json.dumps(out))
    """
)


def test_JAX302_fix_withheld_where_typed_keys_break(tmp_path) -> None:
    rule = find_rule("JAX302")
    assert rule is not None
    examples = {(ex.file or "").rsplit("/", 1)[-1]: ex for ex in rule.INVALID}
    programs: dict[str, str] = {}
    for name in _JAX302_WITHHELD:
        ex = examples[name]
        assert ex.expected_fix == ex.code, f"{name}: the fix must be withheld"
        programs[name] = ex.code
        programs[f"{name} (typed)"] = ex.code.replace("random.PRNGKey(", "random.key(")
    for name in _JAX302_FIXED:
        ex = examples[name]
        assert ex.expected_fix is not None and ex.expected_fix != ex.code
        programs[name] = ex.code
        programs[f"{name} (fixed)"] = ex.expected_fix
    proc = subprocess.run(
        [sys.executable, "-c", _OUTCOME_RUNNER],
        input=json.dumps(programs),
        capture_output=True,
        text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
        cwd=tmp_path,
        timeout=600,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert lines, proc.stderr[-3000:]
    errors = json.loads(lines[-1][len("RESULTS ") :])
    for name in _JAX302_WITHHELD:
        assert errors[name] is None, f"{name} fails as written: {errors[name]}"
        assert errors[f"{name} (typed)"] is not None, f"{name} runs with typed keys"
    for name in _JAX302_FIXED:
        assert errors[name] is None, f"{name}: {errors[name]}"
        assert errors[f"{name} (fixed)"] is None, f"{name} fixed: {errors[f'{name} (fixed)']}"


@pytest.mark.parametrize(
    ("small", "large"),
    [((2, 3), (4, 3)), ((3,), (5,)), ((4, 2), (2, 4)), ((4, 2), (4, 2, 3)), ((2, 2), (3, 3))],
)
@pytest.mark.parametrize("sampler", ["normal", "uniform"])
def test_jax301_wording_prefix_draws_repeat_the_first_values(sampler, small, large) -> None:
    """JAX301 says "only the shape differs, so the smaller draw repeats the first values of
    the larger one": on the installed JAX the smaller draw is the flat prefix of the larger."""
    import jax
    import numpy as np

    key = jax.random.key(0)
    draw = getattr(jax.random, sampler)
    a = np.asarray(draw(key, small)).ravel()
    b = np.asarray(draw(key, large)).ravel()
    assert np.array_equal(a, b[: a.size])


def test_jax301_wording_identical_draws_and_split_after_split_n() -> None:
    """ "the same function with the same arguments, so the two draws are identical" and
    "`split(key)` after `split(key, n)`: both splits return the same first keys"."""
    import jax
    import numpy as np

    key = jax.random.key(0)
    assert np.array_equal(jax.random.normal(key, (3,)), jax.random.normal(key, (3,)))
    first = jax.random.key_data(jax.random.split(key))
    many = jax.random.key_data(jax.random.split(key, 5))
    assert np.array_equal(first, many[:2])


@pytest.mark.parametrize("impl", [None, "threefry2x32", "rbg", "unsafe_rbg"])
def test_jax301_wording_one_draw_decides_the_other(impl) -> None:
    """JAX301's wordings for two samplers on one key with the same shape (and no
    ``dtype``/``minval``/``maxval``): "`bernoulli` is exactly `uniform(...) < p`" and
    "`normal(...) < norm.ppf(p)`" at every position, and "each value of `normal` is an
    increasing function of the value of `uniform` at the same position"."""
    import jax
    import numpy as np
    from jax.scipy.stats import norm

    for seed in range(3):
        key = jax.random.key(seed, impl=impl) if impl else jax.random.PRNGKey(seed)
        for shape in [(8,), (30, 7)]:
            u = np.asarray(jax.random.uniform(key, shape))
            x = np.asarray(jax.random.normal(key, shape))
            for p in (0.1, 0.3, 0.5, 0.9):
                b = np.asarray(jax.random.bernoulli(key, p, shape))
                assert np.array_equal(b, u < p)
                assert np.array_equal(b, x < np.asarray(norm.ppf(p)))
            order = np.argsort(u.ravel(), kind="stable")
            assert np.all(np.diff(x.ravel()[order]) >= 0)


def test_jax301_one_draw_decides_the_other_with_x64_and_not_for_a_float16_p() -> None:
    """The same relations with x64 on (``uniform`` and ``normal`` then draw float64); a
    ``p`` array of another float dtype draws ``bernoulli``'s bits at that dtype, so the
    relation fails and JAX301 says only "correlated" unless ``p`` is a number literal."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.scipy.stats import norm

    key, shape = jax.random.key(1), (500,)
    with jax.enable_x64(True):
        u = np.asarray(jax.random.uniform(key, shape))
        x = np.asarray(jax.random.normal(key, shape))
        b = np.asarray(jax.random.bernoulli(key, 0.3, shape))
    assert u.dtype == np.float64
    assert np.array_equal(b, u < 0.3)
    assert np.array_equal(b, x < np.asarray(norm.ppf(0.3)))
    u = np.asarray(jax.random.uniform(key, shape))
    b16 = np.asarray(jax.random.bernoulli(key, jnp.float16(0.3), shape))
    assert not np.array_equal(b16, u < 0.3)

    program = textwrap.dedent(
        """
        import jax
        import jax.numpy as jnp

        def data(key, p):
            u = jax.random.uniform(key, (8,))
            m = jax.random.bernoulli(key, P, (8,))
            return u * m
        """
    )
    rule = find_rule("JAX301")
    assert rule is not None
    for p, exact in (("0.3", True), ("p", False), ("jnp.float16(0.3)", False)):
        [diag] = lint_text(program.replace("P", p), "case.py", Settings(), [rule]).diagnostics
        assert ("is exactly `jax.random.uniform(...) < " in diag.message) is exact, diag.message


def test_jax301_a_named_draw_kept_in_one_where_alternative_shares_no_bits() -> None:
    """``valid_named_draw_kept_in_one_where_alternative.py``, not reported: JAX's checker
    does reject it (the documented departure), and every value the ``where`` keeps is a
    function of its own position's bits: ``normal`` and ``exponential`` of one key and
    shape are both increasing functions of ``uniform`` at the same position, so a kept
    value never shares bits with the value kept at another position."""
    import runpy
    from pathlib import Path

    import jax
    import numpy as np
    from jax.errors import KeyReuseError

    example = (
        Path(__file__).resolve().parent.parent
        / "jaxlint/rules/prng/prng_key_reuse.examples"
        / "valid_named_draw_kept_in_one_where_alternative.py"
    )
    runpy.run_path(str(example))  # runs as written
    with jax.debug_key_reuse(True), pytest.raises(KeyReuseError):
        runpy.run_path(str(example))
    for seed in range(3):
        key = jax.random.key(seed)
        for shape in [(8,), (30, 7)]:
            u = np.asarray(jax.random.uniform(key, shape)).ravel()
            order = np.argsort(u, kind="stable")
            for draw in (jax.random.normal(key, shape), jax.random.exponential(key, shape)):
                assert np.all(np.diff(np.asarray(draw).ravel()[order]) >= 0)
    # the limit the rule's docs state: a draw of another shape lays its bits out flat, so
    # position j of `(n,)` and flat position j of `(n, m)` come from the same bits
    key = jax.random.key(0)
    small = np.asarray(jax.random.bits(key, (5,)))
    assert np.array_equal(np.asarray(jax.random.bits(key, (5, 4))).ravel()[:5], small)
    rule = find_rule("JAX301")
    assert rule is not None
    assert lint_text(example.read_text(), "mixture.py", Settings(), [rule]).diagnostics == []

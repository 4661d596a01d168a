"""The three rules' claims about JAX, checked on the installed JAX (CPU).

Each test runs a small program before and after ``jaxlint check --fix``: the
original misbehaves the way the rule says, the fixed one runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("jax")

from jaxlint.cli import main as jaxlint_main  # noqa: E402
from jaxlint.versions import installed_jax_version, parse_version  # noqa: E402

ENV = {**os.environ, "JAX_PLATFORMS": "cpu"}
INSTALLED = parse_version(installed_jax_version() or "0")


def _run(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, env=ENV, timeout=300
    )


def _write(tmp_path: Path, name: str, code: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(code))
    return path


def _fix(path: Path, *extra: str) -> int:
    return jaxlint_main(["check", "--fix", "--output-format", "concise", *extra, str(path)])


@pytest.mark.skipif(INSTALLED < (0, 6, 0), reason="tree aliases were removed in JAX 0.6.0")
def test_jax701_tree_aliases_are_gone_and_fix_runs(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "tree.py",
        """
        import jax
        from jax import tree_leaves

        t = {"a": 1.0, "b": (2.0, 3.0)}
        doubled = jax.tree_map(lambda x: x * 2, t)
        print(sorted(tree_leaves(doubled)))
        """,
    )
    before = _run(path)
    assert before.returncode != 0
    assert "ImportError: cannot import name 'tree_leaves' from 'jax'" in before.stderr
    path.write_text(path.read_text().replace("from jax import tree_leaves\n", ""))
    path.write_text(path.read_text().replace("tree_leaves(", "jax.tree_util.tree_leaves("))
    before = _run(path)
    assert "AttributeError" in before.stderr and "tree_map" in before.stderr

    path = _write(
        tmp_path,
        "tree2.py",
        """
        import jax
        from jax import tree_leaves

        t = {"a": 1.0, "b": (2.0, 3.0)}
        doubled = jax.tree_map(lambda x: x * 2, t)
        print(sorted(tree_leaves(doubled)))
        """,
    )
    assert _fix(path) == 0
    after = _run(path)
    assert after.returncode == 0, after.stderr
    assert after.stdout.strip() == "[2.0, 4.0, 6.0]"


@pytest.mark.skipif(INSTALLED < (0, 11, 0), reason="jnp.empty became uninitialized in 0.11")
def test_jax602_empty_is_its_own_primitive_and_fix_gives_zeros(tmp_path: Path) -> None:
    import jax
    import jax.numpy as jnp

    empty_jaxpr = str(jax.make_jaxpr(lambda: jnp.empty((4,)))())  # noqa: JAX602 (deliberate)
    zeros_jaxpr = str(jax.make_jaxpr(lambda: jnp.zeros((4,)))())
    assert "empty[" in empty_jaxpr  # lowers to AllocateBuffer on GPU/TPU
    assert "empty" not in zeros_jaxpr

    path = _write(
        tmp_path,
        "buf.py",
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f():
            buf = jnp.empty((4,), dtype=jnp.float32)
            buf = buf.at[0].set(1.0)
            return buf

        print(jax.make_jaxpr(f)())
        print(f().tolist())
        """,
    )
    before = _run(path)
    assert before.returncode == 0, before.stderr
    assert "empty[" in before.stdout
    text = path.read_text()
    assert _fix(path) == 0  # JAX602 is off by default: nothing is fixed ...
    assert path.read_text() == text
    assert _fix(path, "--extend-select", "JAX602") == 0  # ... unless it is selected
    after = _run(path)
    assert after.returncode == 0, after.stderr
    assert "empty[" not in after.stdout
    assert after.stdout.strip().splitlines()[-1] == "[1.0, 0.0, 0.0, 0.0]"


def test_jax302_raw_keys_are_untyped_and_fix_keeps_the_stream(tmp_path: Path) -> None:
    import jax
    import jax.numpy as jnp

    raw = jax.random.PRNGKey(0)  # noqa: JAX302 (deliberate)
    typed = jax.random.key(0)
    assert raw.dtype == jnp.uint32 and raw.shape == (2,)
    assert jax.dtypes.issubdtype(typed.dtype, jax.dtypes.prng_key) and typed.shape == ()
    # raw keys accept array arithmetic silently; typed keys refuse it (why the rule exists)
    raw + 1
    with pytest.raises(TypeError):
        typed + 1
    # ... and why the fix is unsafe: indexing a key breaks
    raw[0]
    with pytest.raises(IndexError):
        typed[0]

    program = """
        import jax

        key = jax.random.PRNGKey(42)
        k1, k2 = jax.random.split(key)
        print(jax.random.normal(k1, (3,)).tolist(), jax.random.uniform(k2).tolist())
        """
    path = _write(tmp_path, "keys.py", program)
    before = _run(path)
    assert before.returncode == 0, before.stderr
    assert _fix(path) == 0  # JAX302 is off by default
    assert _fix(path, "--extend-select", "JAX302") == 1  # safe fixes leave an unsafe one
    assert "PRNGKey" in path.read_text()
    assert _fix(path, "--extend-select", "JAX302", "--unsafe-fixes") == 0
    assert "jax.random.key(42)" in path.read_text()
    after = _run(path)
    assert after.returncode == 0, after.stderr
    assert after.stdout == before.stdout  # same numbers: typed keys keep the stream


def test_custom_jvp_passes_its_nondiff_arguments_through_as_given() -> None:
    """The trace model's NONDIFF_TRANSFORMS: under jit and under grad, a `nondiff_argnums`
    argument reaches the function as the caller passed it (a Python int stays an int), so
    it is only as traced as the caller's value."""
    import functools

    import jax
    import jax.numpy as jnp

    seen: list[type] = []

    @functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
    def f(n, x):
        seen.append(type(n))
        return x * n

    @f.defjvp
    def f_jvp(n, primals, tangents):
        return f(n, *primals), tangents[0] * n

    jax.jit(lambda x: f(2, x))(jnp.ones(2))
    jax.grad(lambda x: f(3, x).sum())(jnp.ones(2))
    assert seen and all(t is int for t in seen)


def test_a_tracer_equals_no_string_and_jit_traces_no_string() -> None:
    """What the trace model's string facts rest on (``trace_walk._against_strings``,
    ``_string_annotation``): under ``jit`` a traced array compared with a string gives
    Python's ``False`` (``!=``: ``True``; ``in`` a tuple of strings: ``False``) without
    raising, and a string passed as a traced argument is rejected."""
    from jax_support import run_result

    program = textwrap.dedent(
        """
        import json
        import jax
        import jax.numpy as jnp

        seen = {}

        @jax.jit
        def f(x):
            seen["eq"] = x == "train"
            seen["ne"] = x != "train"
            seen["in"] = x in ("sum", "mean")
            return x

        f(jnp.ones(3))
        try:
            jax.jit(lambda x, mode: x)(jnp.ones(3), "train")
            rejected = "accepted"
        except TypeError:
            rejected = "TypeError"
        print("RESULT " + json.dumps({**{k: repr(v) for k, v in seen.items()}, "str": rejected}))
        """
    )
    assert run_result(program) == {"eq": "False", "ne": "True", "in": "False", "str": "TypeError"}

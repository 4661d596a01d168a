"""``jaxlint.verify``: each finding's verify command, filled in (no JAX needed)."""

from __future__ import annotations

import json
import textwrap

from jaxlint.config import Settings
from jaxlint.engine import lint_text
from jaxlint.output import render_json, render_sarif
from jaxlint.rules import all_rules
from jaxlint.verify import parse_declaration


def probes(code: str, filename: str = "model.py") -> dict[str, list[str | None]]:
    result = lint_text(textwrap.dedent(code), filename, Settings(select=("ALL",)), all_rules())
    out: dict[str, list[str | None]] = {}
    for d in result.diagnostics:
        out.setdefault(d.code, []).append(d.probe)
    return out


def test_every_rule_declares_a_probe_the_module_can_read():
    for rule in all_rules():
        decl = parse_declaration(rule.probe)
        assert decl.words[:2] == ("jaxlint", "probe"), rule.code
        assert decl.probe in {"env", "compile", "recompile", "bench", "syncs"}, rule.code
        # donation needs the code to run: never `compile`
        if rule.code == "JAX405":
            assert decl.probe == "bench"
        # a sync per step is counted on the conversion's line, not timed
        if rule.code == "JAX102":
            assert decl.words[2:] == ("syncs", "FILE.py:FUNC", "--line", "LINE")


def test_jax102_line_names_the_function_and_the_conversions_line():
    got = probes(
        """
        import jax
        import jax.numpy as jnp

        step = jax.jit(lambda w: (w * 0.5, jnp.sum(w)), static_argnums=())

        def train(w, n):
            history = []
            for i in range(n):
                w, loss = step(w)
                history.append(
                    float(loss)
                )
            return history
        """
    )
    # no jit flags (syncs runs the loop as it is); LINE is the conversion's own line
    assert got["JAX102"] == ["jaxlint probe syncs model.py:train --line 12 --rule JAX102"]


def test_file_and_enclosing_function_are_filled_in():
    got = probes(
        """
        import jax

        @jax.jit
        def f(x):
            if x > 0:
                return x
            return -x
        """
    )
    assert got["JAX201"] == ["jaxlint probe compile model.py:f --rule JAX201"]


def test_a_traced_helper_names_the_jitted_function_that_traces_it():
    got = probes(
        """
        import jax

        def helper(x):
            if x > 0:
                return x
            return -x

        @jax.jit
        def step(x):
            return helper(x)
        """
    )
    assert got["JAX201"] == ["jaxlint probe compile model.py:step --rule JAX201"]


def test_static_and_donated_arguments_come_from_the_jit_call():
    got = probes(
        """
        import jax

        def power(x, n, flag):
            if x.sum() > n:
                return x
            return x

        fast = jax.jit(power, static_argnums=(1,), static_argnames="flag", donate_argnums=0)
        """
    )
    assert got["JAX201"] == [
        "jaxlint probe compile model.py:power --static-argnums 1 --static-argnames flag"
        " --donate-argnums 0 --rule JAX201"
    ]


def test_static_arguments_that_are_not_literals_give_no_command():
    got = probes(
        """
        import jax
        import numpy as np

        STATIC = (1,)

        def power(x, n):
            return x * np.random.rand()

        fast = jax.jit(power, static_argnums=STATIC)
        """
    )
    assert got["JAX303"] == [None]


def test_key_reuse_carries_its_environment_variable():
    got = probes(
        """
        import jax

        def draws():
            key = jax.random.key(0)
            return jax.random.normal(key, (3,)) + jax.random.normal(key, (3,))
        """
    )
    assert got["JAX301"] == [
        "JAX_DEBUG_KEY_REUSE=1 jaxlint probe compile model.py:draws --rule JAX301"
    ]


def test_donation_runs_the_function_and_module_level_code_has_no_command():
    code = """
        from functools import partial
        import jax
        import jax.numpy as jnp

        @partial(jax.jit, donate_argnums=0)
        def update(w):
            return w * 2

        def main():
            w = jnp.ones(3)
            update(w)
            return w + 1

        w = jnp.ones(3)
        update(w)
        print(w)
        """
    got = probes(code)
    assert got["JAX405"] == ["jaxlint probe bench model.py:main --rule JAX405", None]


def test_unhashable_static_argument_names_the_jitted_callee():
    got = probes(
        """
        from functools import partial
        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnums=1)
        def total(x, axes):
            return x.sum(axis=axes)

        total(jnp.ones((2, 3)), [0, 1])
        """
    )
    assert got["JAX404"] == ["jaxlint probe recompile model.py:total --rule JAX404"]


def test_methods_paths_with_spaces_and_stdin():
    code = """
        import jax

        class Model:
            @jax.jit
            def apply(self, x):
                return float(x)
        """
    assert probes(code)["JAX101"] == ["jaxlint probe compile model.py:Model.apply --rule JAX101"]
    assert probes(code, "my dir/m.py")["JAX101"] == [
        "jaxlint probe compile 'my dir/m.py:Model.apply' --rule JAX101"
    ]
    assert probes(code, "-")["JAX101"] == [None]


def test_json_and_sarif_carry_the_command():
    result = lint_text(
        "import jax\n\n@jax.jit\ndef f(x):\n    return float(x)\n",
        "m.py",
        Settings(select=("ALL",)),
        all_rules(),
    )
    (item,) = json.loads(render_json(result.diagnostics))
    assert item["probe"] == "jaxlint probe compile m.py:f --rule JAX101"
    (sarif,) = json.loads(render_sarif(result.diagnostics))["runs"][0]["results"]
    assert sarif["properties"] == {"probe": "jaxlint probe compile m.py:f --rule JAX101"}


def test_unsynchronized_timing_benches_the_timed_work_not_the_timer():
    """JAX105's verify line times the jitted call being timed (`step`), not the function
    that holds the clock reads (`timed`, whose time would be dispatch only)."""
    code = """
        import time
        import jax

        @jax.jit
        def step(x):
            return x @ x

        fast = jax.jit(lambda x: x + 1)

        def timed(x):
            start = time.perf_counter()
            y = step(x)
            print(time.perf_counter() - start)
            t0 = time.perf_counter()
            z = fast(y)
            print(time.perf_counter() - t0)
            return z
        """
    assert probes(code)["JAX105"] == [
        "jaxlint probe bench model.py:step --rule JAX105",
        "jaxlint probe bench model.py:fast --rule JAX105",
    ]

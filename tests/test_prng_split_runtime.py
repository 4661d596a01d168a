"""Runtime truth for what JAX301 says of a key both drawn from and split: JAX's
key-reuse checker rejects it, yet the draws of the split keys are not correlated with
the draw (unlike two samplers on one key). Measured on CPU JAX in a fresh interpreter,
for each PRNG implementation, over many keys with a fixed seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from jaxlint.config import Settings
from jaxlint.engine import lint_text
from jaxlint.rules import all_rules

pytest.importorskip("jax")

PROGRAM = textwrap.dedent(
    """
    import json
    import jax
    import numpy as np

    def draws(k):
        a = jax.random.normal(k, (3,))
        k1, k2 = jax.random.split(k)
        return a, jax.random.normal(k1, (3,)), jax.random.normal(k2, (3,)), jax.random.uniform(k, (3,))

    out = {}
    for impl in ("threefry2x32", "rbg", "unsafe_rbg"):
        keys = jax.random.split(jax.random.key(123, impl=impl), 100_000)
        a, b, c, u = map(np.asarray, jax.vmap(draws)(keys))
        corr = lambda x, y: float(max(abs(np.corrcoef(x[:, i], y[:, i])[0, 1]) for i in range(3)))
        out[impl] = {"split": max(corr(a, b), corr(a, c)), "samplers": corr(a, u)}
    k = jax.random.key(0)
    out["same_first_keys"] = bool(
        (jax.random.key_data(jax.random.split(k, 2))
         == jax.random.key_data(jax.random.split(k, 5))[:2]).all()
    )
    jax.config.update("jax_debug_key_reuse", True)
    try:
        key = jax.random.key(0)
        jax.random.normal(key)
        jax.random.split(key)
    except Exception as exc:
        out["checker"] = type(exc).__name__
    print("RESULT " + json.dumps(out))
    """
)

CODE = textwrap.dedent(
    """
    import jax

    def sample(key):
        x = jax.random.normal(key, (3,))
        k1, k2 = jax.random.split(key)
        return x, k1, k2

    def handed(key, model):
        y = model.sample(key)
        k1, k2 = jax.random.split(key)
        return y, k1, k2
    """
)


def test_a_draw_and_a_split_of_one_key_are_rejected_but_not_correlated() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM],
        capture_output=True,
        text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = next(x for x in proc.stdout.splitlines() if x.startswith("RESULT "))
    found = json.loads(line.removeprefix("RESULT "))
    assert found.pop("checker") == "KeyReuseError"
    assert found.pop("same_first_keys") is True  # two splits of one key: the same first keys
    for impl, corr in found.items():
        # 100,000 keys: sampling noise of a correlation is about 0.003
        assert corr["split"] < 0.02, (impl, corr)
        assert corr["samplers"] > 0.9, (impl, corr)
    settings = Settings(select=["JAX301"])
    diags = lint_text(CODE, "sample.py", settings, settings.enabled_rules(all_rules())).diagnostics
    assert [d.code for d in diags] == ["JAX301", "JAX301"]
    assert "`jax_debug_key_reuse` rejects a key both drawn from and split" in diags[0].message
    assert "correlated with this draw" in diags[0].message
    assert "if it draws from the key, `jax_debug_key_reuse` rejects the pair" in diags[1].message

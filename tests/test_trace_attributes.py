"""Runtime truth for the trace model's tables of attributes (``jaxlint.analysis.transforms``):
``JAX_ARRAY_ATTRIBUTES`` is every public attribute of a JAX array and
``JAX_RESULT_ATTRIBUTES`` every field and method of the named tuples and classes that
JAX's array modules return, on the installed JAX. An attribute outside both is taken for
pytree navigation of some other object (``x.reshape(...).irreps``), so a missing name
would silence findings on JAX's own values. Run in a fresh CPU JAX interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from jaxlint.analysis.transforms import JAX_ARRAY_ATTRIBUTES, JAX_RESULT_ATTRIBUTES

pytest.importorskip("jax")

PROGRAM = textwrap.dedent(
    """
    import json
    import jax
    import jax.numpy as jnp
    import jax.scipy.optimize
    import jax.scipy.stats
    from jax._src import core
    from jax.scipy.spatial.transform import Rotation, Slerp

    def public(obj):
        return {n for n in dir(obj) if not n.startswith("_")}

    x = jnp.zeros((2, 2))
    array = (public(jax.Array) | public(type(x)) | public(core.Tracer)
             | public(jax.random.key(0)) | public(x.at[0]))
    results = [
        jnp.linalg.eigh(x), jnp.linalg.eig(x), jnp.linalg.qr(x), jnp.linalg.slogdet(x),
        jnp.linalg.svd(x), jnp.unique_all(x), jnp.unique_counts(x), jnp.unique_inverse(x),
        jax.scipy.stats.mode(x),
        jax.scipy.optimize.minimize(lambda v: (v ** 2).sum(), jnp.ones(2), method="BFGS"),
    ]
    fields = set()
    for r in results:
        assert isinstance(r, tuple) and hasattr(r, "_fields"), type(r)
        fields |= set(r._fields)
    for cls in (Rotation, Slerp):
        fields |= public(cls) - public(tuple)
    print("RESULT " + json.dumps({"array": sorted(array), "result": sorted(fields)}))
    """
)


def test_attribute_tables_match_the_installed_jax() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM],
        capture_output=True,
        text=True,
        env={**os.environ, "JAX_PLATFORMS": "cpu"},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    line = next(x for x in proc.stdout.splitlines() if x.startswith("RESULT "))
    found = json.loads(line.removeprefix("RESULT "))
    assert set(found["array"]) == JAX_ARRAY_ATTRIBUTES
    assert set(found["result"]) == JAX_RESULT_ATTRIBUTES

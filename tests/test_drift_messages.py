"""JAX702's advice where the held-out read found it wrong (fresh-2026-12e): `optix`
became the `optax` package, and `index_*(x, jax.ops.index[i], v)` is `x.at[i].op(v)`."""

from __future__ import annotations

import pytest

from jaxlint.config import Settings
from jaxlint.engine import lint_text
from jaxlint.fixers.fixpoint import fix_text
from jaxlint.rules import all_rules


def _lint(text: str, fixes: bool = False):
    settings = Settings()
    rules = settings.enabled_rules(all_rules())
    result = lint_text(text, "m.py", settings, rules, want_fixes=fixes)
    return [d for d in result.diagnostics if d.code == "JAX702"]


@pytest.mark.parametrize(
    "source",
    [
        "import jax.experimental.optix\nopt = jax.experimental.optix.adam(1e-3)",
        "from jax.experimental import optix\nopt = optix.adam(1e-3)",
    ],
)
def test_optix_is_the_optax_package(source: str) -> None:
    diags = _lint(source + "\n")
    assert diags
    for diag in diags:
        assert "`jax.experimental.optix` was removed" in diag.message
        assert "use the `optax` package" in diag.message
        assert "no public replacement" not in diag.message
        assert not diag.fixable  # a different API: no fix


def test_ann_moved_into_lax() -> None:
    (diag,) = _lint("import jax.experimental.ann\n")
    assert "`jax.lax.approx_max_k`" in diag.message
    assert "no public replacement" not in diag.message


OPS = [("index_update", "set"), ("index_add", "add"), ("index_mul", "multiply"),
       ("index_min", "min"), ("index_max", "max")]  # fmt: skip


@pytest.mark.parametrize(("old", "method"), OPS)
@pytest.mark.parametrize(
    ("index", "inside"), [("jax.ops.index[1:3, ...]", "1:3, ..."), ("jax.ops.index[i]", "i")]
)
def test_index_ops_advice_drops_jax_ops_index(old, method, index, inside) -> None:
    text = f"import jax\nimport jax.numpy as jnp\nx = jnp.ones(4)\ny = jax.ops.{old}(x, {index}, 2.0)\n"
    outer, inner = _lint(text)
    assert f"use `x.at[{inside}].{method}(2.0)`" in outer.message
    assert "jax.ops.index[" not in outer.message
    assert outer.fixable
    assert not inner.fixable  # the call's fix takes it along
    fixed = fix_text(text, lambda t: _lint(t, fixes=True), unsafe=False)
    assert fixed.text.endswith(f"\ny = x.at[{inside}].{method}(2.0)\n")
    assert fixed.dropped == [] and _lint(fixed.text) == []


def test_index_update_of_a_plain_index_is_unchanged() -> None:
    text = "import jax\nimport jax.numpy as jnp\nx = jnp.ones(4)\ny = jax.ops.index_update(x, idx, 2.0)\n"
    (diag,) = _lint(text)
    assert "use `x.at[idx].set(2.0)`" in diag.message


def test_a_call_template_never_drops_a_comment_inside_the_call() -> None:
    text = (
        "import jax\nimport jax.numpy as jnp\nx = jnp.ones(4)\n"
        "y = jax.ops.index_update(\n    x,\n    jax.ops.index[1],  # the first row\n    2.0,\n)\n"
    )
    outer, inner = _lint(text)
    assert not outer.fixable  # the rebuilt call would lose the comment
    assert "jax.ops.index[" not in outer.message
    fixed = fix_text(text, lambda t: _lint(t, fixes=True), unsafe=False)
    assert "# the first row" in fixed.text
    assert inner.fixable and "numpy.s_[1]" in fixed.text  # the index alone is still fixed

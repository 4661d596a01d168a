"""JAX601 on an unannotated traced parameter: only a use that one array alone allows
proves that ``x[i] = v`` raises (a dict, a list, a tuple and a ``jax.Ref`` accept
item assignment or reject the use). Runtime truth for the shapes is in the rule's
examples (``tests/test_example_runtime.py``)."""

from __future__ import annotations

import textwrap

import pytest

from jaxlint.config import Settings
from jaxlint.engine import lint_text
from jaxlint.rules.array_semantics import InPlaceUpdate

TEMPLATE = """\
import jax
import jax.numpy as jnp

@jax.jit
def f(x, v):
    x[0] = v
    return {use}
"""


def _codes(use: str) -> list[str]:
    text = TEMPLATE.format(use=use)
    result = lint_text(text, "case.py", Settings(), [InPlaceUpdate])
    return [d.code for d in result.diagnostics]


@pytest.mark.parametrize(
    "use",
    [
        "x - 1",
        "1.0 / x",
        "x + 1",
        "x * 0.5",
        "-x",
        "x > 0",
        "x.sum()",
        "x.astype(jnp.float32)",
        "x.at[1].add(v)",
        "x.real",
        "jnp.sqrt(x)",
        "jnp.linalg.norm(x)",
        "jax.lax.dynamic_slice(x, (0,), (1,))",
    ],
)
def test_a_use_only_one_array_allows_proves_it(use: str) -> None:
    assert _codes(use) == ["JAX601"]


@pytest.mark.parametrize(
    "use",
    [
        "x",
        "x[1]",
        "x * 2",  # repeats a list
        "x + v",  # concatenates lists
        "x == 0",
        "x.shape",  # a jax.Ref has these
        "x.dtype",
        "x.T",
        "x.reshape(-1)",
        "x.at[1].set(v)",
        "x.copy()",  # a list method
        "jnp.stack(x)",  # takes a list
        "jnp.concatenate(x)",
        "jnp.asarray(x)",
        "len(x)",
    ],
)
def test_uses_a_pytree_or_a_ref_allows_prove_nothing(use: str) -> None:
    assert _codes(use) == []


def test_another_binding_of_the_name_keeps_it_silent() -> None:
    text = textwrap.dedent(
        """\
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(x, v):
            x[0] = v
            x = dict(a=v)
            return jnp.sqrt(v) + x["a"] - 1
        """
    )
    assert lint_text(text, "case.py", Settings(), [InPlaceUpdate]).diagnostics == []


def test_a_host_function_parameter_is_never_proven() -> None:
    text = "import jax.numpy as jnp\n\ndef f(x, v):\n    x[0] = v\n    return jnp.sqrt(x)\n"
    assert lint_text(text, "case.py", Settings(), [InPlaceUpdate]).diagnostics == []


@pytest.mark.parametrize(
    "body",
    [
        # a Flax NNX Variable passed bare to jax.jit (flax's own test does this): it
        # forwards arithmetic, and its attributes and ``v[...]`` say what it is
        "x[...] = v\n    x[...] += 5\n    return x + 2",
        "x[0] = v\n    assert x.ref\n    return x + 2",
        "x[0] = v\n    return x.value - 1",
    ],
)
def test_a_use_no_array_allows_disproves_it(body: str) -> None:
    text = f"import jax\n\n@jax.jit\ndef f(x, v):\n    {body}\n"
    assert lint_text(text, "case.py", Settings(), [InPlaceUpdate]).diagnostics == []

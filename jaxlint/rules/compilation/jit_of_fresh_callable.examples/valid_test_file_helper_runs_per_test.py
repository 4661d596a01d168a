import jax
import jax.numpy as jnp


def _run_branch(scale):
    def loss(x):
        return jnp.sum(x * scale)

    return jax.jit(jax.value_and_grad(loss))(jnp.ones(3))


def test_branch_gradient():
    value, grad = _run_branch(2.0)
    assert float(value) == 6.0
    assert bool((grad == 2.0).all())


test_branch_gradient()

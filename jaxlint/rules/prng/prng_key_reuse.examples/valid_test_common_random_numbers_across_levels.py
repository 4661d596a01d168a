import jax
import jax.numpy as jnp


def test_error_shrinks_with_steps():
    keys = jax.random.split(jax.random.key(0), 100)
    levels = (16, 32, 64)

    def path_error(n):
        dw = jax.vmap(lambda k: jax.random.normal(k, (n,)))(keys)
        return float(jnp.mean(jnp.abs(dw.sum(axis=1))) / n)

    errors = [path_error(n) for n in levels]  # the same paths at every level, on purpose
    assert errors[0] > errors[-1]


test_error_shrinks_with_steps()

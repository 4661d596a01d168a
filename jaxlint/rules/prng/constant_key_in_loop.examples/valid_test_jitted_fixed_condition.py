import jax
import jax.numpy as jnp


def test_step_is_dtype_stable():
    @jax.jit
    def step(x):
        # a fixed condition the compiler cannot fold away, the same on every call
        cond = jax.random.randint(jax.random.key(0), (), 0, 2) == 0
        return jax.lax.cond(cond, lambda: x, lambda: x * 2)

    x = jnp.ones(3, jnp.float32)
    for _ in range(2):
        x = step(x)
        assert x.dtype == jnp.float32


test_step_is_dtype_stable()

import jax
import jax.numpy as jnp
from jax import lax


def test_cumsum_disable_jit():
    def step(total, x):
        total = total + x
        print(total)
        return total, total

    with jax.disable_jit():
        out = lax.scan(step, 0.0, jnp.arange(1.0, 4.0))[1]
    assert out.tolist() == [1.0, 3.0, 6.0]


test_cumsum_disable_jit()

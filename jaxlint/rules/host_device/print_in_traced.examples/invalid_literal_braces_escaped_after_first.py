import jax
import jax.numpy as jnp


@jax.jit
def f(x, y):
    print('{a}', x, f'{{b}} {y!r}')
    return x


f(jnp.ones(2), jnp.zeros(2))

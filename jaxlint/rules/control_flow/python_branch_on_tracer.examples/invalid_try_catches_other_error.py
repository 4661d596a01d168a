import jax
import jax.numpy as jnp


@jax.jit
def clip_positive(x):
    try:
        if x.sum() > 0:
            return x
        return -x
    except ValueError:
        return x


clip_positive(jnp.ones(2))

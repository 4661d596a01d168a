import jax
import jax.numpy as jnp


def energy(out, *, for_jit=False):
    total = jnp.sum(out**2)
    if not for_jit:
        return float(total)
    return total


@jax.jit
def loss(x):
    return energy(2 * x, for_jit=True)


@jax.jit
def growth(x):
    return energy(x) / 2  # for_jit left at False under jit


print(loss(jnp.ones(3)), growth(jnp.ones(3)))

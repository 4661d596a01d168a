import jax
import jax.numpy as jnp


def init_weights(n, method="random", seed=0):
    key = jax.random.key(seed)
    # one entry is kept: the draws are alternatives, never used together
    initialisers = {
        "zero": jnp.zeros(n),
        "random": jax.random.normal(key, (n,)),
        "he": jax.random.normal(key, (n,)) * jnp.sqrt(2.0 / n),
    }
    return initialisers[method]


print(init_weights(3, "he"))

import jax
import jax.numpy as jnp


def init_weights(n, seed=0):
    key = jax.random.key(seed)
    initialisers = {
        "zero": jnp.zeros(n),
        "random": jax.random.normal(key, (n,)),
        "he": jax.random.normal(key, (n,)) * jnp.sqrt(2.0 / n),
    }
    # two entries are used together: the same bits, scaled
    return initialisers["random"] + initialisers["he"]


print(init_weights(3))

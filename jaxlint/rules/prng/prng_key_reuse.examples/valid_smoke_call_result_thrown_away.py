import jax
import jax.numpy as jnp
from jax import random

if __name__ == "__main__":
    key = random.PRNGKey(0)

    def loss(scale, data, key):
        def unbatched_loss(data, key):
            k1, k2 = random.split(key, 2)

            noise = random.normal(k1)
            t = random.uniform(k2)
            return jnp.sum((data - scale * noise * t) ** 2)

        unbatched_loss(data[0], key)  # a smoke run: its value is thrown away

        keys = random.split(key, data.shape[0])
        return jax.vmap(unbatched_loss)(data, keys).mean()

    print(loss(2.0, jnp.ones(4), key))

import jax
import jax.numpy as jnp

SEED = 7


def fresh_rng():
    return jax.random.key(SEED)


def augment(images, rng):
    flips = jax.random.bernoulli(rng, 0.5, (images.shape[0],))
    return jnp.where(flips[:, None], images[:, ::-1], images)


data = jnp.arange(12.0).reshape(3, 4)
for epoch in range(5):
    rng = fresh_rng()  # expect: JAX304
    data = augment(data, rng)

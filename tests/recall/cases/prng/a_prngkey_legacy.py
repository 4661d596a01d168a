import jax
import jax.numpy as jnp


def init_params(seed, sizes):
    rng = jax.random.PRNGKey(seed)  # expect: JAX302
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        rng, sub = jax.random.split(rng)
        params.append(jax.random.normal(sub, (n_in, n_out)) / jnp.sqrt(n_in))
    return params


init_params(0, [3, 4, 2])

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def sample_scale(seed, n):
    chi_seed, norm_seed = jax.random.split(seed)
    return jax.random.gamma(chi_seed, 2.0, (n,)) + jax.random.normal(norm_seed, (n,))


def sample_pair(seed, n):
    scale = sample_scale(seed, n)
    mean = jax.random.normal(seed, (n,))
    return mean * jnp.abs(scale)


sample_pair(jax.random.key(0), 3)

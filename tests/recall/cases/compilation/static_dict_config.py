import jax
import jax.numpy as jnp


def apply(x, config):
    return x * config["scale"]


apply_jit = jax.jit(apply, static_argnums=1)
cfg = {"scale": 2.0}
print(apply_jit(jnp.ones(2), cfg))  # expect: JAX404

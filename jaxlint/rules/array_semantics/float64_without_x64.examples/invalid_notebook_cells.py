# %%
import jax.numpy as jnp


def energy(q):
    return 0.5 * jnp.sum(q**2)


# %%
q0 = jnp.ones(4).astype(jnp.float64)
e0 = energy(q0)

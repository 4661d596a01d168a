import equinox as eqx
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def film(key, n, m):
    return eqx.tree_at(
        lambda layer: (layer.weight, layer.bias),
        eqx.nn.Linear(n, m, key=key),
        (0.02 * jax.random.normal(key, (m, n)), jnp.zeros((m,))),
    )


film(jax.random.key(0), 3, 4)

import jax
import jax.numpy as jnp


@jax.jit
def mlp(params, x):
    for i, (w, b) in enumerate(params):
        x = x @ w + b
        if i < len(params) - 1:
            x = jax.nn.relu(x)
    return x


params = [(jnp.ones((3, 3)), jnp.zeros(3)), (jnp.ones((3, 1)), jnp.zeros(1))]
mlp(params, jnp.ones((2, 3)))

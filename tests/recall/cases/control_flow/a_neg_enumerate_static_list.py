import jax
import jax.numpy as jnp


@jax.jit
def apply_layers(layers, x):
    for i, w in enumerate(layers):
        x = jnp.tanh(x @ w) if i < 2 else x @ w
    return x


print(apply_layers([jnp.eye(2)] * 3, jnp.ones(2)))

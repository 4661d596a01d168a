import jax
import jax.numpy as jnp


def make_loss(scale):
    def one(x):
        return scale * jnp.sum(x**2)

    def loss(xs):
        return jax.jit(jax.vmap(one))(xs).sum()

    return loss

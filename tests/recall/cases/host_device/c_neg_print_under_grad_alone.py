import jax
import jax.numpy as jnp


def smooth_l1(pred):
    diff = jnp.abs(pred - 1.0)
    print("residual:", diff)
    return jnp.sum(jnp.where(diff < 1.0, 0.5 * diff**2, diff - 0.5))


jax.grad(smooth_l1)(jnp.array([0.5, 2.0]))

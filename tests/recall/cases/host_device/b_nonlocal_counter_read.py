import jax
import jax.numpy as jnp


def make_step(base_lr):
    step = 0

    @jax.jit
    def update(params, grads):
        nonlocal step
        step += 1  # expect: JAX104
        lr = base_lr / step
        return params - lr * grads

    return update


update = make_step(0.1)
p = update(jnp.ones(3), jnp.ones(3))

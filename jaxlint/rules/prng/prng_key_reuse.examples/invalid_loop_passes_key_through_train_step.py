import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def train_step(model, params, batch, rng):
    def loss_fn(p):
        return (model(rng, p, batch) ** 2).sum()

    grads = jax.grad(loss_fn)(params)
    return params - 0.1 * grads


def train(model, params, batches):
    init_rng, rng = jax.random.split(jax.random.key(0))
    for batch in batches:
        params = train_step(model, params, batch, rng)  # the same dropout every step
    return params


def dropout_model(rng, params, x):
    keep = jax.random.bernoulli(rng, 0.9, x.shape)
    return params * jnp.where(keep, x, 0.0)


train(dropout_model, jnp.ones(3), [jnp.ones(3), jnp.ones(3)])

import jax
import jax.numpy as jnp

def loss(params, batch):
    pred = batch @ params
    print("loss", jnp.mean(pred ** 2))
    return jnp.mean(pred ** 2)

train_grad = jax.jit(jax.grad(loss))
g = train_grad(jnp.ones(3), jnp.ones((2, 3)))

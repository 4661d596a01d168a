import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


x, y = jnp.ones((32, 3)), jnp.zeros(32)
w = jnp.ones(3)
losses = []
for epoch in range(1000):
    w, loss = step(w, x, y)
    losses.append(float(loss))

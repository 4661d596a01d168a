import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, x):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w) ** 2))(w)
    return w - 0.03 * grad, loss


w = jnp.ones(3)
x = jnp.ones((8, 3))
for i in range(50):
    w, loss = sgd_step(w, x)
    print(i, "loss =", loss)

import jax
import jax.numpy as jnp


def loss(w, batch):
    return jnp.mean((batch @ w) ** 2)


def train(w, batches, lr=0.1):
    for batch in batches:
        grad_fn = jax.jit(jax.grad(lambda p: loss(p, batch)))  # expect: JAX401
        w = w - lr * grad_fn(w)
    return w


if __name__ == "__main__":
    print(train(jnp.ones(3), [jnp.ones((4, 3))] * 3))

"""A small training loop written for an older JAX (jaxlint's demo input)."""

import jax
import jax.numpy as jnp
from jax import tree_leaves


def init_params(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        params.append((jax.random.normal(sub, (n_in, n_out)) * 0.1, jnp.zeros(n_out)))
    return params


def predict(params, x):
    for w, b in params:
        x = jnp.tanh(x @ w + b)
    return x


@jax.jit
def sgd_step(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((predict(p, x) - y) ** 2))(params)
    return jax.tree_map(lambda p, g: p - 0.01 * g, params, grads)


def count_params(params):
    return sum(leaf.size for leaf in tree_leaves(params))


def main():
    key = jax.random.PRNGKey(0)
    params = init_params(key, [4, 8, 1])
    history = jnp.empty((10,))  # reads garbage on GPU/TPU where not written
    x = jnp.ones((16, 4))
    y = jnp.zeros((16, 1))
    for step in range(3):
        params = sgd_step(params, x, y)
        history = history.at[step].set(jnp.mean(predict(params, x)))
    print(count_params(params), history)


if __name__ == "__main__":
    main()

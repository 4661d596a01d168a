import jax
import jax.numpy as jnp

latest_penalty = None


def regularized(w, x):
    global latest_penalty
    penalty = 1e-3 * jnp.sum(w**2)
    latest_penalty = penalty  # expect: JAX104
    return jnp.mean((x @ w) ** 2) + penalty


update = jax.jit(jax.grad(regularized))
update(jnp.ones(2), jnp.ones((3, 2)))
print(latest_penalty)

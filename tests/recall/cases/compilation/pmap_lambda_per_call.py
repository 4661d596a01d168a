import jax
import jax.numpy as jnp
import numpy as np


def eval_step(params, xs):
    out = jax.pmap(lambda p, x: jnp.dot(x, p), in_axes=(None, 0))(params, xs)  # expect: JAX402,JAX501
    return np.asarray(out)


print(eval_step(jnp.ones(3), jnp.ones((1, 3))))

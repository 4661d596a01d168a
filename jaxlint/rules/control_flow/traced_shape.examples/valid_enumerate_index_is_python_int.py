import jax
import jax.numpy as jnp

@jax.jit
def prefix_sums(xs):
    out = []
    for i, x in enumerate(xs):
        out.append(jnp.sum(x[: i + 1]))
        if i < len(xs) - 1:
            out[-1] = out[-1] * 2
    return out

prefix_sums([jnp.ones(3), jnp.ones(3)])

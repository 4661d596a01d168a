import jax
import jax.numpy as jnp

def scale(x, k):
    return x * k

def run(xs):
    out = []
    step = jax.jit(
        scale,
        static_argnums=1,
    )  # per batch
    for x in xs:
        out.append(step(x, 2))
    return out

run([jnp.ones(2), jnp.ones(2)])

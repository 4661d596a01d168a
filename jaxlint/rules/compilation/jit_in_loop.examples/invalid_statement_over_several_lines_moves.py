import jax
import jax.numpy as jnp

def scale(x, k):
    return x * k

def run(xs):
    out = []
    for x in xs:
        step = jax.jit(
            scale,
            static_argnums=1,
        )  # per batch
        out.append(step(x, 2))
    return out

run([jnp.ones(2), jnp.ones(2)])

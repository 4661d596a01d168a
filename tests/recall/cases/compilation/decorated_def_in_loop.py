import jax
import jax.numpy as jnp


def sweep(xs, scales):
    out = []
    for x in xs:
        @jax.jit  # expect: JAX401
        def step(v):
            return jnp.tanh(v) * 2.0

        out.append(step(x))
    return out


print(sweep([jnp.ones(3), jnp.zeros(3)], [1.0, 2.0]))

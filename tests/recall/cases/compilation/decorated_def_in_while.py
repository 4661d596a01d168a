import jax
import jax.numpy as jnp


def refine(x, tol):
    while True:
        @jax.jit  # expect: JAX401
        def smooth(v):
            return (v + jnp.roll(v, 1)) / 2

        x = smooth(x)
        if float(jnp.max(jnp.abs(x))) < tol:  # the exit test: not reported (JAX102 docs)
            return x

import jax
import jax.numpy as jnp


def bisect(f):
    def solve(lo, hi):
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = jnp.where(f(lo) * f(mid) <= 0, lo, mid), jnp.where(f(lo) * f(mid) <= 0, mid, hi)
        return (lo + hi) / 2

    return solve


def roots(f, starts, ends):
    # a new `f` per call: each call's function needs its own compilation anyway
    solve = jax.jit(jax.vmap(bisect(f)))
    return solve(starts, ends)


roots(lambda x: x**2 - 2.0, jnp.array([0.0, -2.0]), jnp.array([2.0, 0.0]))

import equinox as eqx
import jax.numpy as jnp


def solve(x, m):
    return (x * m).sum()


def run(xs, m):
    return eqx.filter_jit(eqx.filter_vmap(solve, in_axes=(0, None)))(xs, m)


for _ in range(3):
    run(jnp.ones((4, 3)), jnp.ones(3))

import jax
import jax.numpy as jnp


@jax.jit
def relax(grid):
    new = 0.25 * (jnp.roll(grid, 1, 0) + jnp.roll(grid, -1, 0) + jnp.roll(grid, 1, 1) + jnp.roll(grid, -1, 1))
    return new, jnp.max(jnp.abs(new - grid))


grid = jnp.zeros((8, 8)).at[0].set(1.0)
change = jnp.inf
sweeps = 0
while sweeps < 500 and float(change) > 1e-4:  # the loop needs it to go on: not reported (JAX102 docs)
    grid, change = relax(grid)
    sweeps += 1

import jax
import jax.numpy as jnp

STEP = 5


@jax.jit
def energy(angle):
    return jnp.cos(jnp.deg2rad(angle)) ** 2


energies = []
for angle in jnp.arange(0, 181, STEP):
    energies.append(float(energy(angle)))

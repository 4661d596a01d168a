import jax
import jax.numpy as jnp


def build_system(n_bodies):
    return {"mass": jnp.ones(n_bodies), "dt": 0.01}


def simulate(system, pos):
    return pos + system["dt"] * system["mass"]


finals = []
for n_bodies in range(2, 5):
    system = build_system(n_bodies)
    # one system per sample, each of its own size: one compilation per sample
    final = jax.jit(lambda pos: simulate(system, pos))(jnp.zeros(n_bodies))
    finals.append(final)

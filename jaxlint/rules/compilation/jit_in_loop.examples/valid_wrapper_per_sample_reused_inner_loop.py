import jax
import jax.numpy as jnp


def build_system(n_bodies):
    return {"mass": jnp.ones(n_bodies), "dt": 0.01}


finals = []
for n_bodies in range(2, 5):
    system = build_system(n_bodies)

    def step(pos):
        return pos + system["dt"] * system["mass"]

    # built once per sample, then reused by every step of the inner loop
    step_jit = jax.jit(step)
    pos = jnp.zeros(n_bodies)
    for t in range(100):
        pos = step_jit(pos)
    finals.append(pos)

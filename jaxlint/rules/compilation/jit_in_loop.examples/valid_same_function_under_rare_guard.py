import jax
import jax.numpy as jnp


@jax.jit
def md_step(state):
    return state * 0.99


def energy(state):
    return jnp.sum(state**2)


def simulate(state, num_steps, collect_every):
    energies = []
    step = 0
    while step < num_steps:
        state = md_step(state)
        if step % collect_every == 0:
            energies.append(jax.jit(energy)(state))
        step += 1
    return state, energies


simulate(jnp.ones(3), 50, 10)

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class HostSimulator(eqx.Module):
    """Wraps a host simulation: positions in, positions and the next state file out."""

    n_steps: int

    def __call__(self, walkers: jax.Array, state: str) -> tuple[jax.Array, str]:
        positions = np.asarray(walkers) / 10.0  # one device-to-host copy for the engine
        for _ in range(self.n_steps):
            positions = positions + 0.01
        state = state.replace(".xml", "_next.xml")
        return jnp.array(positions), state


walkers, state = HostSimulator(n_steps=3)(jnp.ones((4, 3)), "run0.xml")
print(state, walkers.sum())

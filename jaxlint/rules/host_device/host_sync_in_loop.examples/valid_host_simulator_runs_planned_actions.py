import jax
import jax.numpy as jnp
import numpy as np


class Simulator:
    """A host simulator (NumPy, or a physics engine): it needs host actions."""

    def rollout(self, actions, seed):
        rng = np.random.default_rng(seed)
        return {"state": np.cumsum(actions) + rng.normal(size=len(actions))}


@jax.jit
def encode(frame):
    return jnp.tanh(frame)


@jax.jit
def plan(z0, z_goal):
    return jnp.linspace(z0, z_goal, 8)


sim = Simulator()
errors = []
for episode in range(1000):
    goal = sim.rollout(np.ones(8), seed=episode)
    start, target = goal["state"][0], goal["state"][-1]
    z0, z_goal = encode(jnp.asarray(start)), encode(jnp.asarray(target))
    actions = np.asarray(plan(z0, z_goal))  # the simulator runs the plan now
    run = sim.rollout(actions, seed=episode)
    errors.append(float(np.abs(run["state"][-1] - target)))

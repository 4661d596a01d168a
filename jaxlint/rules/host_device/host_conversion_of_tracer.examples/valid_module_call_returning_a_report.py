import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class Experiment(eqx.Module):
    steps: int

    def __call__(self, seed):
        losses = self.run(seed)
        report = f"final {float(losses[-1]):.3f}, mean {np.mean(losses):.3f}"
        return report

    def run(self, seed):
        key = jax.random.key(seed)
        return jnp.cumsum(jax.random.uniform(key, (self.steps,)))


print(Experiment(steps=5)(0))

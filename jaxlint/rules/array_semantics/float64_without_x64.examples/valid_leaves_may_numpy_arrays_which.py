import jax
import jax.numpy as jnp
import numpy as np

def cast(tree):
    return jax.tree.map(lambda a: a.astype(jnp.float64), tree)

if __name__ == "__main__":
    params = cast({"w": np.ones(2), "b": np.zeros(1)})

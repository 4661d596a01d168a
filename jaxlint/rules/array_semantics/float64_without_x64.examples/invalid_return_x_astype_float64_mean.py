import jax
import jax.numpy as jnp

@jax.jit
def mean64(x):
    return x.astype("float64").mean()

if __name__ == "__main__":
    m = mean64(jnp.arange(4.0))

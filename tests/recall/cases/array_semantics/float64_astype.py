import jax.numpy as jnp


def precise_sum(x):
    return jnp.sum(x)


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 5)
    print(precise_sum(x.astype("float64")))  # expect: JAX603

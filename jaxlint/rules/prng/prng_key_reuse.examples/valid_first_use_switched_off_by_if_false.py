import jax.numpy as jnp
from jax import random

if __name__ == "__main__":
    key = random.PRNGKey(0)
    if False:  # switched off by hand: never runs
        for i, beta in enumerate(jnp.linspace(0.0, 1.0, 10)):
            k1, k2 = random.split(key, 2)
            a_points = random.uniform(k1, shape=(10, 2)) - 0.5
            b_points = random.uniform(k2, shape=(10, 2)) - 0.5
            print(beta, a_points - b_points)
    noise = random.normal(key, (3,))
    print(noise)

import jax
import jax.numpy as jnp


def run_chain(key, x0):
    def step(x, key):
        x = x + 0.1 * jax.random.normal(key, x.shape)
        return x, x

    return jax.lax.scan(step, x0, jax.random.split(key, 1000))[1]


def sample_sequentially(key, x0, num_chains):
    keys = jax.random.split(key, num_chains)
    samples = []
    for i in range(num_chains):
        # one call runs a whole chain: a slower dispatch per chain costs nothing
        samples.append(jax.jit(run_chain)(keys[i], x0))
    return jnp.stack(samples)


sample_sequentially(jax.random.key(0), jnp.zeros(2), 3)

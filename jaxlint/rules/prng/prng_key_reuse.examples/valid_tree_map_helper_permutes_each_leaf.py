import jax
import jax.numpy as jnp


def minibatches(rng, transitions, targets):
    def shuffle(x, rng):
        # one permutation of the first axis, the same for every leaf: rows stay paired
        return jax.random.permutation(rng, x)

    rng, _rng = jax.random.split(rng)
    batches = jax.tree_util.tree_map(lambda x: shuffle(x, _rng), transitions)
    goals = jax.tree.map(lambda x: shuffle(x, _rng), targets)
    return batches, goals


obs = jnp.arange(8.0)
batches, goals = minibatches(jax.random.key(0), {"obs": obs, "act": 2 * obs}, 3 * obs)
assert bool((batches["act"] == 2 * batches["obs"]).all())
assert bool((goals == 3 * batches["obs"]).all())

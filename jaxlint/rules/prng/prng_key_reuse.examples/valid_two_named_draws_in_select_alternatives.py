import jax
import jax.numpy as jnp


def mutate(tree, key, index, only_constant):
    """Either a branch's mutation of `tree` or a nudge of its constant: never both."""
    branches = [lambda t, k: t + jax.random.uniform(k, t.shape), lambda t, k: -t]
    mutated = jax.lax.switch(index, branches, tree, key)
    nudged = tree.at[-1].add(jax.random.normal(key))
    # each draw is kept, through its name, in one alternative only; `mutated` read after
    # the select is the selection's result
    mutated = jax.lax.select(only_constant, nudged, mutated)
    return mutated


mutate(jnp.zeros(3), jax.random.key(0), 0, jnp.array(True))

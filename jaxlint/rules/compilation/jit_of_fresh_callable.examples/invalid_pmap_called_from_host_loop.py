import jax
from jax import lax


def sync_batch_stats(stats):
    avg = jax.pmap(lambda x: lax.pmean(x, "x"), "x")
    return avg(stats)


def train(state, stats, batches, step):
    for batch in batches:
        state, stats = step(state, stats, batch)
        stats = sync_batch_stats(stats)
    return state, stats

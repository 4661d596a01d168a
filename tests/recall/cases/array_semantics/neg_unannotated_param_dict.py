import jax
import jax.numpy as jnp


def update_stats(stats, x):
    stats["count"] += 1
    stats["sum"] = stats["sum"] + jnp.sum(x)
    return stats


print(update_stats({"count": 0, "sum": 0.0}, jnp.ones(3)))

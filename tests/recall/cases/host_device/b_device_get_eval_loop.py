import jax
import jax.numpy as jnp


@jax.jit
def eval_step(params, batch):
    pred = batch @ params
    return {"mse": jnp.mean(pred**2), "max": jnp.max(pred)}


params = jnp.ones(3)
batches = [jnp.ones((4, 3)) * i for i in range(20)]
totals = []
for batch in batches:
    metrics = jax.device_get(eval_step(params, batch))  # fixed params, independent batches: not a chain of steps (JAX102 docs)
    totals.append(metrics["mse"])
print(sum(totals) / len(totals))

import jax
import jax.numpy as jnp


@jax.jit
def eval_step(w, x):
    return {"loss": jnp.mean((x @ w) ** 2)}


def evaluate(w, batches):
    history = []
    for x in batches:
        metrics = jax.device_get(eval_step(w, x))  # expect: JAX102
        history.append(metrics["loss"])
    return history

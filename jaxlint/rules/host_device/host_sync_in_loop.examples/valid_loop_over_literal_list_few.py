import jax
import jax.numpy as jnp


@jax.jit
def evaluate(w, x):
    return jnp.sum(w * x)


w = jnp.ones(3)
for lr in [0.1, 0.01, 0.001]:
    score = evaluate(w * lr, jnp.ones(3))
    print(lr, float(score))

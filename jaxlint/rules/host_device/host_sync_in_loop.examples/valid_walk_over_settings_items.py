import jax
import jax.numpy as jnp


@jax.jit
def evaluate(w, scale):
    return jnp.sum(w * scale)


settings = {"small": 0.1, "medium": 1.0, "large": 10.0}
w = jnp.ones(3)
for name, scale in settings.items():
    score = evaluate(w, scale)
    print(name, float(score))

import jax
import jax.numpy as jnp


@jax.jit
def newton_update(x):
    fx = x**3 - 2.0
    return x - fx / (3 * x**2), jnp.abs(fx)


x = jnp.array(1.5)
for it in range(10_000):
    x, residual = newton_update(x)
    converged = bool(residual <= 1e-7)  # the loop needs it to go on: not reported (JAX102 docs)
    if converged:
        print("converged after", it)
        break
